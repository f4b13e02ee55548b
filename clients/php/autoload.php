<?php

// The client's classes without Composer (`require 'clients/php/autoload.php'`): PSR-4, the namespace Dipswitch in
// src/. With Composer, its own vendor/autoload.php does the same from composer.json.
declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    if (!str_starts_with($class, 'Dipswitch\\')) return;
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen('Dipswitch\\'))) . '.php';
    if (is_file($file)) require $file;
});
