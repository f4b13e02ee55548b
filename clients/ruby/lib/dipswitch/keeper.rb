# frozen_string_literal: true

# The keeper of a container a client started: `ruby keeper.rb OWNER MARKER ENGINE ID`, in a process group of its
# own. Once the owner (the test process) is gone, however it ended, or when the keeper is sent SIGTERM (a stop), it
# removes the container (`ENGINE rm -f`), then MARKER: a stop waits for that.
owner, marker, engine, container = ARGV
stopping = false
Signal.trap('TERM') { stopping = true }
Signal.trap('INT', 'IGNORE')
alive = lambda do
  Process.kill(0, owner.to_i)
  true
rescue Errno::ESRCH
  false
rescue Errno::EPERM
  true
end
sleep 0.1 while !stopping && alive.call
system(engine, 'rm', '-f', container, out: File::NULL, err: File::NULL)
File.delete(marker) if File.exist?(marker)
