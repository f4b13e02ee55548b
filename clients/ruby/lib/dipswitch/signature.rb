# frozen_string_literal: true

require 'openssl'

module Dipswitch
  # The `HMAC_SHA256` auth method's signature (docs/webhooks.md): `Authorization: SERVICE0-HMAC-SHA256 <hex>`.
  module Signature
    # Whether `header` (the Authorization received) signs `body` (the raw bytes, as received) with `secret`.
    def self.verify(header, body, secret)
      scheme, hex = header.to_s.split(' ', 2)
      return false unless scheme == 'SERVICE0-HMAC-SHA256' && hex.to_s.match?(/\A[0-9a-f]{64}\z/)

      OpenSSL.fixed_length_secure_compare(OpenSSL::HMAC.hexdigest('SHA256', secret, body), hex)
    end
  end
end
