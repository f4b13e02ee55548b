<?php

declare(strict_types=1);

namespace Dipswitch;

/**
 * Where the server is and how to start one: each setting from the value given, else its environment variable (an
 * empty one is unset), else its default; the same names and order in every client (docs/clients.md has the table).
 * A value that cannot be meant is a SettingError naming the setting.
 */
final class Settings
{
    public const ENGINES = ['docker', 'podman'];

    /** @param list<string>|null $command */
    public function __construct(
        public readonly ?string $url = null,
        public readonly ?string $adminToken = null,
        public readonly ?string $image = null,
        public readonly ?array $command = null,
        public readonly ?string $containerEngine = null,
        public readonly int|float|null $failUnder = null,
        public readonly ?string $run = null,
        public readonly bool $fetch = false,
    ) {
    }

    /** The settings as the environment says them, each value given here winning over its variable. */
    public static function resolve(array $given = [], ?array $environ = null): self
    {
        $env = static function (string $name) use ($environ): ?string {
            $v = $environ === null ? getenv($name) : ($environ[$name] ?? false);
            return $v === false || $v === '' ? null : $v;
        };
        $gate = $given['failUnder'] ?? null;
        if ($gate === null && ($said = $env('DIPSWITCH_FAIL_UNDER')) !== null) {
            if (!is_numeric($said)) throw new SettingError("DIPSWITCH_FAIL_UNDER is a percentage from 0 to 100, not '$said'");
            $gate = $said + 0;
        }
        if ($gate !== null && ($gate < 0 || $gate > 100))
            throw new SettingError("the coverage gate (DIPSWITCH_FAIL_UNDER) is a percentage from 0 to 100, not $gate");
        $engine = $given['containerEngine'] ?? $env('DIPSWITCH_CONTAINER_ENGINE');
        if ($engine !== null && !in_array($engine, self::ENGINES, true))
            throw new SettingError("DIPSWITCH_CONTAINER_ENGINE is docker or podman, not '$engine'");
        $fetch = $given['fetch'] ?? null;
        if ($fetch === null) {
            $said = strtolower($env('DIPSWITCH_FETCH') ?? 'false');
            if (!in_array($said, ['1', 'true', 'yes', '0', 'false', 'no'], true))
                throw new SettingError("DIPSWITCH_FETCH is true or false, not '$said'");
            $fetch = in_array($said, ['1', 'true', 'yes'], true);
        }
        $command = $given['command'] ?? null;
        if ($command === null && ($line = $env('DIPSWITCH_COMMAND')) !== null) {
            try {
                $command = ShellWords::split($line);
            } catch (\InvalidArgumentException $e) {
                throw new SettingError("DIPSWITCH_COMMAND cannot be split into words ({$e->getMessage()}): $line");
            }
        }
        return new self(
            url: $given['url'] ?? $env('DIPSWITCH_URL'),
            adminToken: $given['adminToken'] ?? $env('DIPSWITCH_ADMIN_TOKEN'),
            image: $given['image'] ?? $env('DIPSWITCH_IMAGE'),
            command: $command,
            containerEngine: $engine,
            failUnder: $gate,
            run: $given['run'] ?? $env('DIPSWITCH_RUN'),
            fetch: $fetch,
        );
    }
}
