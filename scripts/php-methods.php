<?php

// The PHP client's public methods as a Markdown table (scripts/client-readmes.mjs), by PHP's reflection over its
// classes: each method's signature and its doc comment's first line. `php scripts/php-methods.php '["clock", …]'`,
// the argument the member areas of contract/sim.yaml's x-client-areas.
declare(strict_types=1);

require __DIR__ . '/../clients/php/autoload.php';

$rows = [];
$type = static fn (?ReflectionType $t): string => $t === null ? '' : str_replace(['Dipswitch\\Model\\', 'Dipswitch\\'], '', (string) $t);
$add = static function (string $label, string $class, ?array $only = null) use (&$rows, $type): void {
    foreach ((new ReflectionClass($class))->getMethods(ReflectionMethod::IS_PUBLIC) as $m) {
        $name = $m->getName();
        if ($only !== null ? !in_array($name, $only, true) : $m->getDeclaringClass()->getName() !== $class) continue;
        if (str_starts_with($name, '__') || in_array($name, ['call', 'given', 'jsonSerialize'], true)) continue;
        $params = array_map(static function (ReflectionParameter $p) use ($type): string {
            $s = trim($type($p->getType()) . ' $' . $p->getName());
            return $p->isDefaultValueAvailable() ? $s . ' = ' . strtolower(var_export($p->getDefaultValue(), true)) : $s;
        }, $m->getParameters());
        preg_match('~/\*\*\s*(?:\*\s*)?(.*?)\s*(?:\*/|\n)~', (string) $m->getDocComment(), $first);
        $said = str_replace('|', '\|', trim($first[1] ?? ''));
        $rows[] = "| `$label" . ($m->isStatic() ? '::' : '->') . "$name(" . implode(', ', $params) . '): ' . $type($m->getReturnType()) . "` | $said |";
    }
};
$add('Dipswitch', Dipswitch\Dipswitch::class);
$add('$sim', Dipswitch\Server::class, ['openapi', 'accounts', 'scenarios', 'runScenario', 'metrics', 'close']);
$add('$sim / $box', Dipswitch\Client::class);
$add('$sim / $box', Dipswitch\Api\ControlApi::class);
$add('Sandbox', Dipswitch\Sandbox::class, ['remove', 'with']);
foreach (json_decode($argv[1], true) as $area) {
    $add("\$x->$area", 'Dipswitch\\Api\\' . ($area === 'deliveries' ? 'DeliveriesApi' : ucfirst($area)));
    if ($area === 'deliveries') $add('$x->deliveries', Dipswitch\Deliveries::class);
}
echo "| method | what it does |\n|---|---|\n" . implode("\n", $rows) . "\n";
