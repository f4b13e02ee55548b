# frozen_string_literal: true

module Dipswitch
  # The coverage gate at the end of a run: the run's coverage (its sandboxes' `run`), said in one line, against the
  # gate (DIPSWITCH_FAIL_UNDER, or the one given); with neither, there is no gate and the line says so.
  module Gate
    # Whether the run passes; `say` gets the line ($stderr by default). A run that made no sandbox (`made` false)
    # says so, and fails only under a gate.
    def self.check(client, run: client.run, fail_under: Settings.resolve.fail_under, made: true, say: ->(l) { warn l })
      unless made
        say.call("run #{run} made no sandbox (no test asked for dipswitch)#{fail_under && ": FAILS the gate of #{fail_under}%"}")
        return fail_under.nil?
      end
      s = client.coverage(run: run).summary
      passed = fail_under.nil? || s.percent >= fail_under
      verdict = if fail_under.nil? then 'no gate (DIPSWITCH_FAIL_UNDER is not set)'
                else "#{passed ? 'passes' : 'FAILS'} the gate of #{fail_under}%"
                end
      say.call("dipswitch coverage of run #{run}: #{s.answers_seen} of #{s.answers} documented answers of " \
               "#{s.operations_called} operations called seen (#{s.percent}%): #{verdict}")
      passed
    end
  end
end
