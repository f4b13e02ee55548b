# frozen_string_literal: true

module Dipswitch
  # Where the server is and how to start one: each setting from the value given, else its environment variable (an
  # empty one is unset), else its default; the same names and order in every client (docs/clients.md has the table).
  Settings = Struct.new(:url, :admin_token, :image, :command, :container_engine, :fail_under, :run, :fetch,
                        keyword_init: true) do
    # The settings as the environment says them, each value given here winning over its variable.
    def self.resolve(env: ENV, **given)
      read = ->(name) { env[name].to_s.empty? ? nil : env[name] }
      new(
        url: given[:url] || read['DIPSWITCH_URL'],
        admin_token: given[:admin_token] || read['DIPSWITCH_ADMIN_TOKEN'],
        image: given[:image] || read['DIPSWITCH_IMAGE'],
        command: given[:command] || command_of(read['DIPSWITCH_COMMAND']),
        container_engine: engine_of(given[:container_engine] || read['DIPSWITCH_CONTAINER_ENGINE']),
        fail_under: gate_of(given[:fail_under] || read['DIPSWITCH_FAIL_UNDER']),
        run: given[:run] || read['DIPSWITCH_RUN'],
        fetch: given.key?(:fetch) ? given[:fetch] : fetch_of(read['DIPSWITCH_FETCH']),
      )
    end

    def self.gate_of(said)
      return nil if said.nil?

      gate = Float(said, exception: false)
      unless gate&.between?(0, 100)
        raise SettingError, "the coverage gate (DIPSWITCH_FAIL_UNDER) is a percentage from 0 to 100, not #{said.inspect}"
      end

      gate == gate.floor ? gate.to_i : gate
    end

    def self.engine_of(named)
      return nil if named.nil? || %w[docker podman].include?(named)

      raise SettingError, "DIPSWITCH_CONTAINER_ENGINE is docker or podman, not #{named.inspect}"
    end

    def self.fetch_of(said)
      value = (said || 'false').downcase
      raise SettingError, "DIPSWITCH_FETCH is true or false, not #{value.inspect}" unless %w[1 true yes 0 false no].include?(value)

      %w[1 true yes].include?(value)
    end

    def self.command_of(line)
      line && ShellWords.split(line)
    rescue ArgumentError => e
      raise SettingError, "DIPSWITCH_COMMAND cannot be split into words (#{e.message}): #{line}"
    end
  end
end
