# frozen_string_literal: true

require 'minitest'
require_relative 'run'

module Dipswitch
  # Minitest's glue (`require "dipswitch/minitest"`): include Dipswitch::Minitest::Sandbox in a test class, and
  # `dipswitch_sandbox` is a fresh sandbox of the run (made at its first use, removed after the test). At the end of
  # the run, the gate (DIPSWITCH_FAIL_UNDER) is one more reporter: a run under it fails, its line in the report.
  module Minitest
    # What a test has: its sandbox and the run's server.
    module Sandbox
      def dipswitch_sandbox
        @dipswitch_sandbox ||= Run.sandbox(self.class.name)
      end

      def dipswitch_server = Run.server

      def after_teardown
        super
        @dipswitch_sandbox&.remove
      end
    end

    # The gate as Minitest's reporter: it passes when the run's coverage is over its gate (or there is none).
    class GateReporter < ::Minitest::AbstractReporter
      def initialize(io)
        super()
        @io = io
        @passed = true
      end

      def report
        @passed = Run.finish(say: ->(line) { @io.puts(line) })
      end

      def passed? = @passed
    end
  end
end

module Minitest
  def self.plugin_dipswitch_init(options)
    reporter << Dipswitch::Minitest::GateReporter.new(options[:io] || $stdout)
  end
end
Minitest.extensions << 'dipswitch' unless Minitest.extensions.include?('dipswitch')
