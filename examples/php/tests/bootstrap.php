<?php

require __DIR__ . '/../../../clients/php/autoload.php';
require __DIR__ . '/../src/NumbersClient.php';

Dipswitch\PHPUnit\Run::start();
