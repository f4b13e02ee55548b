# frozen_string_literal: true

require_relative '../dipswitch'

module Dipswitch
  # The run's server for a test framework's glue (rspec.rb, minitest.rb): reached or started at the first sandbox,
  # each test's sandbox of the run, and at the end the gate (DIPSWITCH_FAIL_UNDER) and a started server stopped.
  module Run
    @server = nil
    @made = false

    class << self
      # The run's server, reached or started at the first call; DIPSWITCH_RUN is its run from then on.
      def server
        @server ||= Dipswitch.start.tap { |s| ENV['DIPSWITCH_RUN'] = s.run }
      end

      # A fresh sandbox of the run.
      def sandbox(name = nil)
        @made = true
        server.sandbox(name)
      end

      # The gate's verdict over the run (true: it passes); a server the run started is stopped. A run that never
      # asked for a server passes unless a gate was set, saying so.
      def finish(say: ->(l) { warn l })
        return Gate.check(nil, run: nil, made: false, say: say) if @server.nil? && !Settings.resolve.fail_under.nil?
        return true if @server.nil?

        begin
          Gate.check(@server, made: @made, say: say)
        ensure
          @server.close
        end
      end
    end
  end
end
