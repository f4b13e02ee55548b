<?php

declare(strict_types=1);

namespace Dipswitch;

/**
 * DIPSWITCH_COMMAND split into words by the clients' one rule (docs/clients.md, clients/shell_words.json):
 * whitespace separates words; '…' keeps everything; "…" keeps everything but \" and \\, which stand for " and \
 * (any other backslash is kept); a backslash outside quotes keeps the next character.
 */
final class ShellWords
{
    /** @return list<string> */
    public static function split(string $line): array
    {
        $words = [];
        $word = null;
        $n = strlen($line);
        for ($i = 0; $i < $n; $i++) {
            $c = $line[$i];
            if ($c === '\\') {
                if (++$i >= $n) throw new \InvalidArgumentException('a backslash ends the line');
                $word = ($word ?? '') . $line[$i];
            } elseif ($c === "'") {
                $end = strpos($line, "'", $i + 1);
                if ($end === false) throw new \InvalidArgumentException('an unclosed single quote');
                $word = ($word ?? '') . substr($line, $i + 1, $end - $i - 1);
                $i = $end;
            } elseif ($c === '"') {
                $word ??= '';
                for ($i++; ; $i++) {
                    if ($i >= $n) throw new \InvalidArgumentException('an unclosed double quote');
                    if ($line[$i] === '"') break;
                    if ($line[$i] === '\\' && $i + 1 < $n && ($line[$i + 1] === '"' || $line[$i + 1] === '\\')) $i++;
                    $word .= $line[$i];
                }
            } elseif (ctype_space($c)) {
                if ($word !== null) $words[] = $word;
                $word = null;
            } else {
                $word = ($word ?? '') . $c;
            }
        }
        if ($word !== null) $words[] = $word;
        return $words;
    }
}
