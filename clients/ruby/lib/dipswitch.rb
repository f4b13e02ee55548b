# frozen_string_literal: true

# dipswitch's client for Ruby: the control API of a dipswitch server (generated from contract/sim.yaml), the launch
# of one, sandboxes, waiting, a webhook receiver, the signature check and the coverage gate.
# `require "dipswitch/rspec"` or `require "dipswitch/minitest"` adds a test framework's glue.
require_relative 'dipswitch/version'
require_relative 'dipswitch/errors'
require_relative 'dipswitch/generated/operations'
require_relative 'dipswitch/generated/models'
require_relative 'dipswitch/core'
%w[clock inbound faults requests deliveries_api snapshots states control_api server_api sandbox_api].each do |area|
  require_relative "dipswitch/api/#{area}"
end
require_relative 'dipswitch/deliveries'
require_relative 'dipswitch/shell_words'
require_relative 'dipswitch/settings'
require_relative 'dipswitch/launcher'
require_relative 'dipswitch/client'
require_relative 'dipswitch/signature'
require_relative 'dipswitch/receiver'
require_relative 'dipswitch/gate'
