<?php

declare(strict_types=1);

namespace Dipswitch;

/** A server that could not be started, with what its launcher said last. */
final class LaunchError extends DipswitchError
{
}
