# frozen_string_literal: true

module Dipswitch
  # The delivery log (the generated DeliveriesApi), and the one thing written by hand: waiting.
  class Deliveries < DeliveriesApi
    # The oldest delivery holding `match` (the server checks it, as a verify's), waiting up to `timeout` seconds; a
    # VerificationError when none came in time, saying how long it waited and what came nearest.
    def wait_for(match, timeout: 5)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
      loop do
        found = verify(match: match, count: { 'at_least' => 1 })
        return get(found.matches.last.to_s)
      rescue VerificationError => e
        raise e.waited(timeout) if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

        sleep 0.05
      end
    end
  end
end
