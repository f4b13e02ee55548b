<?php

declare(strict_types=1);

namespace Dipswitch;

/** The delivery log (the generated Api\DeliveriesApi), and the one thing written by hand: waiting. */
final class Deliveries extends Api\DeliveriesApi
{
    /**
     * The oldest delivery holding `$match` (the server checks it, as a verify's), waiting up to `$timeout` seconds;
     * a VerificationError when none came in time, saying how long it waited and what came nearest.
     */
    public function waitFor(array|Model\VerifyDeliveriesMatch $match, float $timeout = 5.0): Model\Delivery
    {
        $deadline = microtime(true) + $timeout;
        while (true) {
            try {
                $found = $this->verify($match, ['at_least' => 1]);
                return $this->get((string) $found->matches[count($found->matches) - 1]);
            } catch (VerificationError $e) {
                if (microtime(true) > $deadline) throw $e->waited($timeout);
            }
            usleep(50_000);
        }
    }
}
