# frozen_string_literal: true

require 'webrick'

module Dipswitch
  # A webhook receiver for a test that only wants to see what was sent: WEBrick on a free port of 127.0.0.1 in a
  # thread of the test's process, answering every request `status` (200). Build a target from the server's receiver
  # host: `receiver.url(box.receiver_host, '/sms')`. With a block, the receiver is handed to it and closed after.
  class Receiver
    # One request as it came: its method, path, headers (lowercase names) and raw body.
    Request = Struct.new(:method, :path, :headers, :body, keyword_init: true)

    attr_reader :port

    def self.open(status: 200)
      receiver = new(status: status)
      return receiver unless block_given?

      begin
        yield receiver
      ensure
        receiver.close
      end
    end

    def initialize(status: 200)
      @received = Queue.new
      @kept = []
      started = Queue.new
      @server = WEBrick::HTTPServer.new(BindAddress: '127.0.0.1', Port: 0, Logger: WEBrick::Log.new(File::NULL),
                                        AccessLog: [], StartCallback: -> { started << true })
      @server.mount_proc('/') do |req, res|
        headers = req.header.transform_values { |v| v.join(', ') }
        @received << Request.new(method: req.request_method, path: req.unparsed_uri, headers: headers, body: req.body.to_s)
        res.status = status
        res.body = 'ok'
      end
      @port = @server.config[:Port]
      @thread = Thread.new { @server.start }
      # serving before it is handed out: a shutdown before the server's loop began would never end it
      started.pop
    end

    # The URL of `path` on this receiver as the server reaches it (`host`: the client's receiver_host).
    def url(host = '127.0.0.1', path = '/') = "http://#{host}:#{@port}#{path}"

    # Every request so far.
    def received
      @kept << @received.pop until @received.empty?
      @kept.dup
    end

    # The first `count` requests, waiting up to `timeout` seconds for them.
    def wait_for(count = 1, timeout: 5)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
      while received.size < count
        if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
          raise Error, "the receiver got #{@kept.size} of #{count} requests within #{timeout} s"
        end

        sleep 0.02
      end
      @kept.first(count)
    end

    def close
      @server.shutdown
      @thread.join
    end
  end
end
