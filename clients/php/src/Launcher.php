<?php

declare(strict_types=1);

namespace Dipswitch;

/**
 * Starting a server for a test run, from the first of: an image, a command, a dipswitch installed in the project
 * (node_modules/.bin), a registry fetch of this client's own version (only with DIPSWITCH_FETCH=true). A command's
 * server is started by the launch contract (docs/clients.md): it writes where it serves to its --ready-file and ends
 * by itself once the test process is gone, however that ends (--parent-pid). A container is removed by a keeper
 * (bin/keeper.php, in a session of its own) once the test process is gone; it carries the label dipswitch.owner.
 */
final class Launcher
{
    public const VERSION = '0.1.0';

    public static function start(Settings $settings, ?int $owner = null, float $timeout = 90.0): Started
    {
        $owner ??= getmypid();
        if ($settings->image !== null) {
            $engine = self::engine($settings->containerEngine)
                ?? throw new LaunchError("dipswitch: DIPSWITCH_IMAGE is {$settings->image}, but neither docker nor podman answers (`docker info`, `podman info`); name one with DIPSWITCH_CONTAINER_ENGINE");
            return self::container($engine, $settings->image, $settings->adminToken ?? bin2hex(random_bytes(16)), $owner, $timeout);
        }
        [$command, $how] = [$settings->command ?? self::local(getcwd() ?: '.'), 'command'];
        if ($command === null && $settings->fetch) [$command, $how] = [['npx', '--yes', 'dipswitch@' . self::VERSION, '--memory', '--port', '0'], 'fetch'];
        if ($command === null)
            throw new LaunchError(sprintf('dipswitch: no server to reach or start: set DIPSWITCH_URL (a running server), DIPSWITCH_IMAGE (an image), DIPSWITCH_COMMAND (a command), install it in the project (npm install --save-dev dipswitch@%1$s), or DIPSWITCH_FETCH=true (npx dipswitch@%1$s)', self::VERSION));
        return self::command($command, $settings->adminToken, $owner, $timeout, $how);
    }

    /** dipswitch installed in the project: node_modules/.bin/dipswitch here or in a folder above. */
    public static function local(string $folder): ?array
    {
        for ($at = realpath($folder) ?: $folder; ; $at = dirname($at)) {
            if (file_exists("$at/node_modules/.bin/dipswitch")) return ["$at/node_modules/.bin/dipswitch", '--memory', '--port', '0'];
            if (dirname($at) === $at) return null;
        }
    }

    /** The engine that runs images: the one named, else the first of docker and podman whose `info` answers. */
    public static function engine(?string $named): ?string
    {
        foreach ($named !== null ? [$named] : Settings::ENGINES as $engine) {
            exec('command -v ' . escapeshellarg($engine) . ' 2>/dev/null', $out, $found);
            if ($found !== 0) {
                if ($named !== null) throw new LaunchError("DIPSWITCH_CONTAINER_ENGINE is $engine, but there is no $engine command");
                continue;
            }
            exec(escapeshellarg($engine) . ' info >/dev/null 2>&1', $out, $answered);
            if ($answered === 0) return $engine;
            if ($named !== null) throw new LaunchError("$engine does not answer (`$engine info`)");
        }
        return null;
    }

    private static function command(array $argv, ?string $token, int $owner, float $timeout, string $how): Started
    {
        $folder = sys_get_temp_dir() . '/dipswitch-server-' . bin2hex(random_bytes(6));
        mkdir($folder, 0700);
        [$ready, $output] = ["$folder/ready.json", "$folder/output.log"];
        $env = getenv();
        if ($token !== null) $env['SIM_ADMIN_TOKEN'] = $token;
        $launched = [...$argv, '--ready-file', $ready, '--parent-pid', (string) $owner];
        $server = @proc_open($launched, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $output, 'w'], 2 => ['file', $output, 'a']], $pipes, null, $env);
        if ($server === false) throw new LaunchError('dipswitch did not start (' . implode(' ', $argv) . ': it could not be run)');
        $deadline = microtime(true) + $timeout;
        while (true) {
            clearstatcache();
            if (is_file($ready) && ($info = json_decode((string) file_get_contents($ready), true)) !== null)
                return new Started($info['url'], $token, $how, $info['pid'], $ready, folder: $folder);
            $status = proc_get_status($server);
            if (!$status['running'] || microtime(true) > $deadline) {
                if ($status['running']) proc_terminate($server);
                $reason = $status['running'] ? sprintf('did not serve within %g s', $timeout) : "exited with {$status['exitcode']}";
                $said = self::lastLines((string) @file_get_contents($output));
                self::remove($folder);
                throw new LaunchError('dipswitch did not start (' . implode(' ', $argv) . ": $reason); it said:\n$said");
            }
            usleep(30_000);
        }
    }

    private static function container(string $engine, string $image, string $token, int $owner, float $timeout): Started
    {
        // the container reaches receivers on this machine's loopback: podman's slirp4netns maps 10.0.2.2 to it;
        // docker reaches the host as host.docker.internal (a receiver there listens beyond 127.0.0.1)
        [$network, $receiverHost] = $engine === 'podman'
            ? [['--network', 'slirp4netns:allow_host_loopback=true'], '10.0.2.2']
            : [['--add-host', 'host.docker.internal:host-gateway'], 'host.docker.internal'];
        $argv = [$engine, 'run', '-d', '--label', "dipswitch.owner=$owner", ...$network, '-p', '127.0.0.1::4010', '-e', "SIM_ADMIN_TOKEN=$token", $image];
        exec(implode(' ', array_map('escapeshellarg', $argv)) . ' 2>&1', $said, $status);
        if ($status !== 0) throw new LaunchError("dipswitch's image did not start ($engine run … $image: exit $status); $engine said:\n" . self::lastLines(implode("\n", $said)));
        $id = (string) end($said);
        $marker = tempnam(sys_get_temp_dir(), 'dipswitch-server-');
        $keeper = proc_open(['setsid', PHP_BINARY, dirname(__DIR__) . '/bin/keeper.php', (string) $owner, $marker, $engine, $id], [['file', '/dev/null', 'r'], ['file', '/dev/null', 'w'], ['file', '/dev/null', 'w']], $pipes);
        $keeperPid = proc_get_status($keeper)['pid'];
        $port = preg_replace('/.*:/', '', trim((string) shell_exec(escapeshellarg($engine) . ' port ' . escapeshellarg($id) . ' 4010/tcp')));
        $url = "http://127.0.0.1:$port";
        $deadline = microtime(true) + $timeout;
        while (@file_get_contents("$url/__sim/health") === false) {
            if (microtime(true) > $deadline) {
                $logs = (string) shell_exec(escapeshellarg($engine) . ' logs ' . escapeshellarg($id) . ' 2>&1');
                posix_kill($keeperPid, SIGTERM);
                throw new LaunchError(sprintf("dipswitch's image %s did not answer within %g s; it said:\n%s", $image, $timeout, self::lastLines($logs)));
            }
            usleep(200_000);
        }
        return new Started($url, $token, 'image', $keeperPid, $marker, $receiverHost);
    }

    public static function lastLines(string $text, int $n = 15): string
    {
        $lines = array_filter(explode("\n", $text), static fn ($l) => trim($l) !== '');
        return $lines ? implode("\n", array_map(static fn ($l) => "  $l", array_slice($lines, -$n))) : '  (it said nothing)';
    }

    public static function remove(string $folder): void
    {
        foreach (glob("$folder/*") ?: [] as $file) @unlink($file);
        @rmdir($folder);
    }
}
