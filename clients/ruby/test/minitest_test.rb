# frozen_string_literal: true

require 'minitest/autorun'
require 'dipswitch/minitest'

# Minitest's glue against a server: a sandbox per test, removed after it; the gate a reporter of the run.
class MinitestGlueTest < Minitest::Test
  include Dipswitch::Minitest::Sandbox

  def test_a_sandbox_of_its_own_with_its_numbers
    box = dipswitch_sandbox
    assert_equal 10, box.numbers.size
    assert_equal 'received', box.inbound.sms(to: box.numbers.first, from: '+14155550123', text: 'hi').trace.first.step
  end

  def test_each_test_another_sandbox
    refute_nil dipswitch_sandbox.id
    assert_equal ENV.fetch('DIPSWITCH_RUN'), dipswitch_sandbox.made.run
  end
end
