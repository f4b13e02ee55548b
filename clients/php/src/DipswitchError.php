<?php

declare(strict_types=1);

namespace Dipswitch;

/** Anything the client throws of its own. */
class DipswitchError extends \RuntimeException
{
}
