<?php

declare(strict_types=1);

namespace Dipswitch;

/**
 * The coverage gate at the end of a run: the run's coverage (its sandboxes' `run`), said in one line, against the
 * gate (DIPSWITCH_FAIL_UNDER, or the one given); with neither, there is no gate and the line says so.
 */
final class Gate
{
    /**
     * Whether the run passes; `$say` gets the line (STDERR by default). A run that made no sandbox (`$made` false)
     * says so, and fails only under a gate.
     */
    public static function check(Client $client, ?string $run = null, int|float|null $failUnder = null, ?callable $say = null, bool $made = true): bool
    {
        $failUnder ??= Settings::resolve()->failUnder;
        $run ??= $client->run;
        $say ??= static fn (string $line) => fwrite(STDERR, "$line\n");
        if (!$made) {
            $say("run $run made no sandbox (no test asked for dipswitch)" . ($failUnder === null ? '' : ": FAILS the gate of $failUnder%"));
            return $failUnder === null;
        }
        $s = $client->coverage(run: $run)->summary;
        $passed = $failUnder === null || $s->percent >= $failUnder;
        $verdict = $failUnder === null ? 'no gate (DIPSWITCH_FAIL_UNDER is not set)' : ($passed ? 'passes' : 'FAILS') . " the gate of $failUnder%";
        $say("dipswitch coverage of run $run: {$s->answersSeen} of {$s->answers} documented answers of {$s->operationsCalled} operations called seen ({$s->percent}%): $verdict");
        return $passed;
    }
}
