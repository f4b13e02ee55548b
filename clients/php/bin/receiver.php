<?php

// The router of Dipswitch\Receiver under PHP's built-in server: each request kept as a line of JSON in the file
// DIPSWITCH_RECEIVED names, answered with DIPSWITCH_RECEIVER_STATUS.
declare(strict_types=1);

$request = [
    'method' => $_SERVER['REQUEST_METHOD'],
    'path' => $_SERVER['REQUEST_URI'],
    'headers' => array_change_key_case(getallheaders(), CASE_LOWER),
    'body' => (string) file_get_contents('php://input'),
];
file_put_contents((string) getenv('DIPSWITCH_RECEIVED'), json_encode($request, JSON_UNESCAPED_SLASHES) . "\n", FILE_APPEND | LOCK_EX);
http_response_code((int) (getenv('DIPSWITCH_RECEIVER_STATUS') ?: 200));
echo 'ok';
