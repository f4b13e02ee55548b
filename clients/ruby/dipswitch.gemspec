# frozen_string_literal: true

require_relative 'lib/dipswitch/version'

Gem::Specification.new do |spec|
  spec.name = 'dipswitch'
  spec.version = Dipswitch::VERSION
  spec.summary = "The client of dipswitch, a simulator of a telephony provider's Provisioning and Messaging Account API"
  spec.description = 'A typed client of the control API generated from its contract, the launch of a server for a ' \
                     'test run, sandboxes, waiting, a webhook receiver, the signature check, the coverage gate, and ' \
                     'the glue for RSpec and Minitest.'
  spec.authors = ['dipswitch']
  spec.license = 'Apache-2.0'
  spec.required_ruby_version = '>= 3.1'
  spec.files = Dir['lib/**/*.rb'] + %w[README.md LICENSE]
  spec.require_paths = ['lib']
  spec.add_runtime_dependency 'webrick', '~> 1.7'
  spec.metadata['rubygems_mfa_required'] = 'true'
end
