# frozen_string_literal: true

module Dipswitch
  # DIPSWITCH_COMMAND split into words by the clients' one rule (docs/clients.md, clients/shell_words.json):
  # whitespace separates words; '…' keeps everything; "…" keeps everything but \" and \\, which stand for " and \
  # (any other backslash is kept); a backslash outside quotes keeps the next character. Not Shellwords.split, which
  # follows a POSIX shell inside double quotes.
  module ShellWords
    def self.split(line)
      words = []
      word = nil
      chars = line.chars
      i = 0
      while i < chars.size
        c = chars[i]
        case c
        when '\\'
          i += 1
          raise ArgumentError, 'a backslash ends the line' if i >= chars.size

          word = "#{word}#{chars[i]}"
        when "'"
          stop = ((i + 1)...chars.size).find { |j| chars[j] == "'" } or raise ArgumentError, 'an unclosed single quote'
          word = "#{word}#{chars[(i + 1)...stop].join}"
          i = stop
        when '"'
          word = +(word || '')
          loop do
            i += 1
            raise ArgumentError, 'an unclosed double quote' if i >= chars.size
            break if chars[i] == '"'

            i += 1 if chars[i] == '\\' && ['"', '\\'].include?(chars[i + 1])
            word << chars[i]
          end
        when /\s/
          words << word unless word.nil?
          word = nil
        else
          word = "#{word}#{c}"
        end
        i += 1
      end
      words << word unless word.nil?
      words
    end
  end
end
