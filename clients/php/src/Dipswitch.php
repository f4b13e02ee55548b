<?php

declare(strict_types=1);

namespace Dipswitch;

/**
 * The way in: `Dipswitch::start()` reaches the server the settings name (DIPSWITCH_URL) or starts one (an image, a
 * command, the project's dipswitch, a fetch: docs/clients.md), and answers the Server client; `close()` stops a
 * server it started. `Dipswitch::connect($url)` only reaches one.
 */
final class Dipswitch
{
    /** A server: DIPSWITCH_URL's when set, else one started (image, command, the project's, a fetch); close() stops it. */
    public static function start(?Settings $settings = null): Server
    {
        $settings ??= Settings::resolve();
        $run = $settings->run ?? 'php-' . getmypid();
        if ($settings->url !== null) return new Server($settings->url, $settings->adminToken, $run);
        $started = Launcher::start($settings);
        return new Server($started->url, $started->adminToken, $run, $started->receiverHost, $started);
    }

    /** A running server: `$url`, else DIPSWITCH_URL; the admin token, else DIPSWITCH_ADMIN_TOKEN. */
    public static function connect(?string $url = null, ?string $adminToken = null): Server
    {
        $settings = Settings::resolve(array_filter(['url' => $url, 'adminToken' => $adminToken]));
        if ($settings->url === null) throw new SettingError('dipswitch: no server to connect to: give its URL or set DIPSWITCH_URL');
        return new Server($settings->url, $settings->adminToken, $settings->run);
    }
}
