# frozen_string_literal: true

require 'dipswitch/rspec'
require 'numbers_client'
