<?php

declare(strict_types=1);

namespace Dipswitch\PHPUnit;

use Dipswitch\Sandbox;

/**
 * A sandbox for each test of a TestCase: `$this->box`, made before the test (its name the test class's) and removed
 * after it. PHPUnit 9 reads the annotations, PHPUnit 10 to 12 the attributes.
 */
trait UsesSandbox
{
    protected Sandbox $box;

    /** @before */
    #[\PHPUnit\Framework\Attributes\Before]
    protected function makeDipswitchSandbox(): void
    {
        $this->box = Run::sandbox((new \ReflectionClass($this))->getShortName());
    }

    /** @after */
    #[\PHPUnit\Framework\Attributes\After]
    protected function removeDipswitchSandbox(): void
    {
        if (isset($this->box)) $this->box->remove();
    }
}
