# frozen_string_literal: true

require 'json'
require 'net/http'
require 'securerandom'
require 'tmpdir'
require 'fileutils'

module Dipswitch
  # A server a client started: its URL and token, the process a stop signals, and a file there until it stopped.
  Started = Struct.new(:url, :admin_token, :how, :pid, :until_gone, :receiver_host, :folder, keyword_init: true) do
    # Ends the server now (its pending writes finish) and waits until it is done.
    def stop
      begin
        Process.kill('TERM', pid)
      rescue Errno::ESRCH
        nil # already gone
      end
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
      sleep 0.05 while File.exist?(until_gone) && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
      FileUtils.rm_rf(folder) if folder
    end
  end

  # Starting a server for a test run, from the first of: an image, a command, a dipswitch installed in the project
  # (node_modules/.bin), a registry fetch of this client's own version (only with DIPSWITCH_FETCH=true). A command's
  # server is started by the launch contract (docs/clients.md): it writes where it serves to its --ready-file and
  # ends by itself once the test process is gone, however that ends (--parent-pid). A container is removed by a
  # keeper (lib/dipswitch/keeper.rb, in a process group of its own) once the test process is gone.
  module Launcher
    NO_SERVER = 'dipswitch: no server to reach or start: set DIPSWITCH_URL (a running server), DIPSWITCH_IMAGE (an ' \
                'image), DIPSWITCH_COMMAND (a command), install it in the project (npm install --save-dev ' \
                "dipswitch@#{VERSION}), or DIPSWITCH_FETCH=true (npx dipswitch@#{VERSION})"

    def self.start(settings, owner: Process.pid, timeout: 90)
      if settings.image
        engine = engine(settings.container_engine) or
          raise LaunchError, "dipswitch: DIPSWITCH_IMAGE is #{settings.image}, but neither docker nor podman answers " \
                             '(`docker info`, `podman info`); name one with DIPSWITCH_CONTAINER_ENGINE'
        return container(engine, settings.image, settings.admin_token || SecureRandom.hex(16), owner, timeout)
      end
      command, how = settings.command || local(Dir.pwd), 'command'
      command, how = ['npx', '--yes', "dipswitch@#{VERSION}", '--memory', '--port', '0'], 'fetch' if command.nil? && settings.fetch
      raise LaunchError, NO_SERVER if command.nil?

      command(command, settings.admin_token, owner, timeout, how)
    end

    # dipswitch installed in the project: node_modules/.bin/dipswitch here or in a folder above.
    def self.local(folder)
      at = File.expand_path(folder)
      loop do
        found = File.join(at, 'node_modules', '.bin', 'dipswitch')
        return [found, '--memory', '--port', '0'] if File.exist?(found)
        return nil if File.dirname(at) == at

        at = File.dirname(at)
      end
    end

    # The engine that runs images: the one named, else the first of docker and podman whose `info` answers.
    def self.engine(named)
      (named ? [named] : %w[docker podman]).find do |engine|
        answered = system(engine, 'info', out: File::NULL, err: File::NULL)
        raise LaunchError, "#{engine} does not answer (`#{engine} info`)" if named && !answered

        answered
      end
    end

    def self.command(argv, token, owner, timeout, how)
      folder = Dir.mktmpdir('dipswitch-server-')
      ready = File.join(folder, 'ready.json')
      output = File.join(folder, 'output.log')
      env = token ? { 'SIM_ADMIN_TOKEN' => token } : {}
      begin
        pid = Process.spawn(env, *argv, '--ready-file', ready, '--parent-pid', owner.to_s,
                            in: File::NULL, out: output, err: %i[child out], pgroup: true)
      rescue SystemCallError => e
        FileUtils.rm_rf(folder)
        raise LaunchError, "dipswitch did not start (#{argv.join(' ')}: it could not be run: #{e.message})"
      end
      waiter = Process.detach(pid)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
      loop do
        if File.exist?(ready)
          info = JSON.parse(File.read(ready))
          return Started.new(url: info['url'], admin_token: token, how: how, pid: info['pid'], until_gone: ready,
                             receiver_host: '127.0.0.1', folder: folder)
        end
        alive = waiter.alive?
        if !alive || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
          Process.kill('TERM', pid) if alive
          said = last_lines(File.exist?(output) ? File.read(output) : '')
          FileUtils.rm_rf(folder)
          reason = alive ? "did not serve within #{timeout} s" : "exited with #{waiter.value.exitstatus}"
          raise LaunchError, "dipswitch did not start (#{argv.join(' ')}: #{reason}); it said:\n#{said}"
        end
        sleep 0.03
      end
    end

    def self.container(engine, image, token, owner, timeout)
      # the container reaches receivers on this machine's loopback: podman's slirp4netns maps 10.0.2.2 to it;
      # docker reaches the host as host.docker.internal (a receiver there listens beyond 127.0.0.1)
      network, receiver_host = engine == 'podman' ? [%w[--network slirp4netns:allow_host_loopback=true], '10.0.2.2'] : [%w[--add-host host.docker.internal:host-gateway], 'host.docker.internal']
      argv = [engine, 'run', '-d', '--label', "dipswitch.owner=#{owner}", *network, '-p', '127.0.0.1::4010', '-e', "SIM_ADMIN_TOKEN=#{token}", image]
      said = IO.popen(argv, err: %i[child out], &:read)
      raise LaunchError, "dipswitch's image did not start (#{engine} run … #{image}); #{engine} said:\n#{last_lines(said)}" unless $?.success?

      id = said.lines.last.strip
      marker = File.join(Dir.mktmpdir('dipswitch-server-'), 'keeper')
      File.write(marker, '')
      keeper = Process.spawn(RbConfig.ruby, File.join(__dir__, 'keeper.rb'), owner.to_s, marker, engine, id,
                             in: File::NULL, out: File::NULL, err: File::NULL, pgroup: true)
      Process.detach(keeper)
      port = IO.popen([engine, 'port', id, '4010/tcp'], &:read).lines.first.to_s.strip.split(':').last
      url = "http://127.0.0.1:#{port}"
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
      until healthy?(url)
        next sleep(0.2) if Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline

        logs = IO.popen([engine, 'logs', id], err: %i[child out], &:read)
        Process.kill('TERM', keeper)
        raise LaunchError, "dipswitch's image #{image} did not answer within #{timeout} s; it said:\n#{last_lines(logs)}"
      end
      Started.new(url: url, admin_token: token, how: 'image', pid: keeper, until_gone: marker, receiver_host: receiver_host)
    end

    def self.healthy?(url)
      Net::HTTP.get_response(URI("#{url}/__sim/health")).is_a?(Net::HTTPSuccess)
    rescue SystemCallError, IOError, Net::OpenTimeout, Net::ReadTimeout
      false
    end

    def self.last_lines(text, count = 15)
      lines = text.lines.map(&:rstrip).reject(&:empty?).last(count)
      lines.empty? ? '  (it said nothing)' : lines.map { |l| "  #{l}" }.join("\n")
    end
  end
end
