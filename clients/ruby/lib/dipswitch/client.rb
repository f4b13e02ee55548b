# frozen_string_literal: true

module Dipswitch
  # What every client shares: the areas of the control API (generated, ControlApi), health, reset, coverage, and
  # sandboxes of its run. Written here: its run, its receiver host, and a sandbox made as a client of its own.
  class Client < ControlApi
    # The run its sandboxes are tagged with; the address the server reaches this machine's loopback at.
    attr_reader :run, :receiver_host

    def initialize(url, key: nil, admin_token: nil, run: nil, receiver_host: '127.0.0.1')
      super(url, key: key, admin_token: admin_token)
      @run = run
      @receiver_host = receiver_host
    end

    # A fresh sandbox of the run (the client's, else DIPSWITCH_RUN), and a client that acts on it alone; with a
    # block, the sandbox is handed to it and removed however the block ends.
    def sandbox(name = nil, run: nil)
      box = Sandbox.new(self, create_sandbox(name: name, run: run || @run || ENV.fetch('DIPSWITCH_RUN', nil)))
      return box unless block_given?

      begin
        yield box
      ensure
        box.remove
      end
    end
  end

  # A sandbox: its id, name, run, keys and numbers, and a client that acts on it alone (its admin key).
  class Sandbox < Client
    include SandboxApi

    attr_reader :made, :id, :name, :keys, :numbers

    def initialize(parent, made)
      super(parent.url, key: made.keys.admin, admin_token: parent.admin_token, run: made.run,
                        receiver_host: parent.receiver_host)
      @made = made
      @id = made.id
      @name = made.name
      @keys = made.keys
      @numbers = made.numbers
    end
  end

  # The server with the control API's own authority (its admin token, where it has one); `Dipswitch.start` makes
  # one and stops the server it started at `close`.
  class Server < Client
    include ServerApi

    attr_reader :started

    def initialize(url, admin_token: nil, run: nil, receiver_host: '127.0.0.1', started: nil)
      super(url, admin_token: admin_token, run: run, receiver_host: receiver_host)
      @started = started
    end

    # Stops the server this client started (nothing for one it only reached).
    def close = @started&.stop
  end

  # A server: DIPSWITCH_URL's when set, else one started (image, command, the project's, a fetch); `close` stops it.
  # With a block, the server is handed to it and stopped however the block ends.
  def self.start(**given)
    settings = Settings.resolve(**given)
    run = settings.run || "ruby-#{Process.pid}"
    server = if settings.url
               Server.new(settings.url, admin_token: settings.admin_token, run: run)
             else
               started = Launcher.start(settings)
               Server.new(started.url, admin_token: started.admin_token, run: run,
                                       receiver_host: started.receiver_host, started: started)
             end
    return server unless block_given?

    begin
      yield server
    ensure
      server.close
    end
  end

  # A running server: `url`, else DIPSWITCH_URL; the admin token, else DIPSWITCH_ADMIN_TOKEN.
  def self.connect(url = nil, admin_token: nil)
    settings = Settings.resolve(**{ url: url, admin_token: admin_token }.compact)
    raise SettingError, 'dipswitch: no server to connect to: give its URL or set DIPSWITCH_URL' unless settings.url

    Server.new(settings.url, admin_token: settings.admin_token, run: settings.run)
  end
end
