# frozen_string_literal: true

# The Ruby client's public methods as a Markdown table (scripts/client-readmes.mjs): each method's parameters, by
# Ruby's reflection, and the first line of the comment above its definition. `ruby scripts/ruby-methods.rb
# '["clock", …]'`, the argument the member areas of contract/sim.yaml's x-client-areas.
require 'json'
$LOAD_PATH.unshift(File.join(__dir__, '..', 'clients', 'ruby', 'lib'))
require 'dipswitch'

def said(method)
  file, line = method.source_location
  lines = File.readlines(file)[0...(line - 1)].reverse.take_while { |l| l.strip.start_with?('#') }.reverse
  lines.map { |l| l.strip.delete_prefix('#').strip }.reject { |l| l.start_with?('@') }.join(' ').split(/(?<=\.)\s/).first.to_s
end

def signature(method)
  method.parameters.map do |kind, name|
    { req: name.to_s, opt: "#{name} = …", keyreq: "#{name}:", key: "#{name}: nil", rest: "*#{name}", keyrest: "**#{name}", block: "&#{name}" }[kind]
  end.join(', ')
end

rows = []
add = lambda do |label, owner, names = nil, singleton: false|
  names ||= singleton ? owner.singleton_methods(false) : owner.public_instance_methods(false)
  methods = names.map { |name| singleton ? owner.method(name) : owner.instance_method(name) }
  methods.sort_by { |m| m.source_location[1] }.each do |method|
    name = method.name
    rows << "| `#{label}#{singleton ? '.' : '.'}#{name}(#{signature(method)})` | #{said(method).gsub('|', '\|')} |"
  end
end
add.call('Dipswitch', Dipswitch, %i[start connect], singleton: true)
add.call('sim', Dipswitch::Server, %i[close])
add.call('sim', Dipswitch::ServerApi)
add.call('sim / box', Dipswitch::Client, %i[sandbox])
add.call('sim / box', Dipswitch::ControlApi)
add.call('box', Dipswitch::SandboxApi)
JSON.parse(ARGV[0]).each do |area|
  name = area == 'deliveries' ? 'DeliveriesApi' : area.capitalize
  add.call("x.#{area}", Dipswitch.const_get(name))
  add.call('x.deliveries', Dipswitch::Deliveries) if area == 'deliveries'
end
puts "| method | what it does |\n|---|---|\n#{rows.join("\n")}"
