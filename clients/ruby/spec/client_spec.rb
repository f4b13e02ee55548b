# frozen_string_literal: true

require 'dipswitch'
require 'json'
require 'openssl'

# What the client decides without a server: its settings, the command's words, signatures, its operations.
RSpec.describe Dipswitch do
  it 'splits the command as every client splits it' do
    cases = JSON.parse(File.read(File.join(__dir__, '..', '..', 'shell_words.json')))
    cases['cases'].each { |c| expect(Dipswitch::ShellWords.split(c['line'])).to eq(c['words']), c['line'] }
    cases['refused'].each { |line| expect { Dipswitch::ShellWords.split(line) }.to raise_error(ArgumentError) }
  end

  it 'reads each setting from its value, else its variable; refuses one that cannot be meant, naming it' do
    env = { 'DIPSWITCH_URL' => 'http://127.0.0.1:9', 'DIPSWITCH_FAIL_UNDER' => '', 'DIPSWITCH_COMMAND' => "node '/a b/main.js' --memory" }
    settings = Dipswitch::Settings.resolve(env: env)
    expect(settings.to_h).to include(url: 'http://127.0.0.1:9', fail_under: nil, command: ['node', '/a b/main.js', '--memory'], fetch: false)
    expect(Dipswitch::Settings.resolve(env: env, url: 'http://x').url).to eq('http://x')
    expect(Dipswitch::Settings.resolve(env: { 'DIPSWITCH_FAIL_UNDER' => '50' }).fail_under).to eq(50)
    [{ 'DIPSWITCH_FAIL_UNDER' => '150' }, { 'DIPSWITCH_FAIL_UNDER' => 'most' }, { 'DIPSWITCH_FETCH' => 'maybe' },
     { 'DIPSWITCH_CONTAINER_ENGINE' => 'lxc' }, { 'DIPSWITCH_COMMAND' => "node 'unclosed" }].each do |bad|
      expect { Dipswitch::Settings.resolve(env: bad) }.to raise_error(Dipswitch::SettingError, /#{bad.keys.first}/)
    end
  end

  it 'checks a signature over the raw body' do
    body = '{"type":"sms"}'
    header = "SERVICE0-HMAC-SHA256 #{OpenSSL::HMAC.hexdigest('SHA256', 'shh', body)}"
    expect(Dipswitch::Signature.verify(header, body, 'shh')).to be(true)
    expect(Dipswitch::Signature.verify(header, "#{body} ", 'shh')).to be(false)
    expect(Dipswitch::Signature.verify(header, body, 'other')).to be(false)
    expect(Dipswitch::Signature.verify(nil, body, 'shh')).to be(false)
  end

  it 'has a method or a reason for every operation, and names none that is not one' do
    called = Dir[File.join(__dir__, '..', 'lib', 'dipswitch', 'api', '*.rb')].flat_map { |f| File.read(f).scan(/\.call\('(\w+)'/).flatten }
    expect(Dipswitch::OPERATIONS.keys - called - Dipswitch::OMITTED.keys).to eq([])
    expect(called - Dipswitch::OPERATIONS.keys).to eq([])
  end
end
