<?php

declare(strict_types=1);

namespace Dipswitch;

/** A setting whose value cannot be meant: said with the setting's name. */
final class SettingError extends DipswitchError
{
}
