# frozen_string_literal: true

require 'rspec/core'
require_relative 'run'

module Dipswitch
  # RSpec's glue (`require "dipswitch/rspec"`): `dipswitch_sandbox` in an example is a fresh sandbox of the run (made
  # at its first use, removed after the example); `dipswitch_server` the run's server. After the suite, the gate
  # (DIPSWITCH_FAIL_UNDER): a run under it fails with its line, as an error outside the examples.
  module RSpec
    # The run's coverage was under its gate.
    class GateFailed < Error; end

    # What an example has: its sandbox and the run's server.
    module Helpers
      def dipswitch_sandbox
        @dipswitch_sandbox ||= Run.sandbox(self.class.description)
      end

      def dipswitch_server = Run.server
    end
  end
end

RSpec.configure do |config|
  config.include Dipswitch::RSpec::Helpers
  config.after(:each) do
    @dipswitch_sandbox&.remove
  end
  config.after(:suite) do
    said = []
    passed = Dipswitch::Run.finish(say: lambda { |line|
      said << line
      warn line
    })
    raise Dipswitch::RSpec::GateFailed, said.join("\n") unless passed
  end
end
