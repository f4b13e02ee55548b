# frozen_string_literal: true

module Dipswitch
  # This release's version, as package.json, the image and every client say it.
  VERSION = '0.1.0'
end
