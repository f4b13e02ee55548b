<?php

declare(strict_types=1);

namespace Dipswitch\PHPUnit;

use Dipswitch\Dipswitch;
use Dipswitch\Gate;
use Dipswitch\Server;

/**
 * The run's server for PHPUnit (9 to 12), from its bootstrap file: `Run::start()` reaches or starts it once for the
 * process, and at the process's end gates the run's coverage (DIPSWITCH_FAIL_UNDER) and stops a server it started.
 * A gate that fails ends the run with exit status 1 and its line, as PHPUnit's exit status cannot be set otherwise
 * from a bootstrap. Each test takes a sandbox of the run with the UsesSandbox trait.
 */
final class Run
{
    private static ?Server $server = null;
    private static bool $made = false;

    public static function start(): Server
    {
        if (self::$server !== null) return self::$server;
        $server = self::$server = Dipswitch::start();
        putenv("DIPSWITCH_RUN={$server->run}");
        register_shutdown_function(static function () use ($server): void {
            $passed = true;
            try {
                $passed = Gate::check($server, made: self::$made);
            } finally {
                $server->close();
            }
            if (!$passed) exit(1);
        });
        return $server;
    }

    /** The run's server, started at the first call when the bootstrap did not. */
    public static function server(): Server
    {
        return self::$server ?? self::start();
    }

    /** A fresh sandbox of the run. */
    public static function sandbox(?string $name = null): \Dipswitch\Sandbox
    {
        self::$made = true;
        return self::server()->sandbox($name);
    }
}
