# frozen_string_literal: true

require 'json'
require 'net/http'
require 'uri'

module Dipswitch
  # The request core: one call of one operation of the control API, and the errors it raises. Every method of the
  # client is one operation of contract/sim.yaml, generated into lib/dipswitch/api and named by its operationId; its
  # method and path come from the generated table (OPERATIONS), never written twice.
  class Core
    attr_reader :url, :key, :admin_token, :timeout

    def initialize(url, key: nil, admin_token: nil, timeout: 60)
      @url = url.chomp('/')
      @key = key
      @admin_token = admin_token
      @timeout = timeout
    end

    # A body's fields, those not given (nil) left out.
    def self.given(fields = {}) = fields.compact

    # Calls one operation: its path's parameters, a JSON body (nil for none) and the query (nil values left out);
    # the answer parsed, or its text when it is not JSON.
    def call(operation, params = {}, body = nil, query = {})
      method, path = OPERATIONS.fetch(operation) { raise ArgumentError, "#{operation} is no operation of contract/sim.yaml" }
      params.each { |name, value| path = path.sub("{#{name}}", URI.encode_www_form_component(value.to_s).gsub('+', '%20')) }
      pairs = query.compact.transform_values(&:to_s)
      uri = URI("#{@url}#{path}#{pairs.empty? ? '' : "?#{URI.encode_www_form(pairs)}"}")
      request = Net::HTTPGenericRequest.new(method, !body.nil?, true, uri.request_uri, headers(body))
      request.body = JSON.generate(body) unless body.nil?
      answer = Net::HTTP.start(uri.host, uri.port, open_timeout: @timeout, read_timeout: @timeout) { |h| h.request(request) }
      parsed = answer['content-type'].to_s.include?('json') && !answer.body.to_s.empty? ? JSON.parse(answer.body) : answer.body.to_s
      return parsed if answer.code.to_i < 400

      refused(operation, answer.code.to_i, parsed)
    rescue SystemCallError, IOError, Net::OpenTimeout, Net::ReadTimeout => e
      raise Error, "#{operation}: no answer from #{@url}: #{e.message}"
    end

    private

    def given(fields = {}) = fields.compact

    def headers(body)
      out = { 'accept' => 'application/json' }
      out['authorization'] = "Bearer #{@key}" if @key
      out['x-sim-admin-token'] = @admin_token if @admin_token
      out['content-type'] = 'application/json' unless body.nil?
      out
    end

    def refused(operation, status, parsed)
      envelope = parsed.is_a?(Hash) ? parsed : { 'errors' => [{ 'code' => 'not_json', 'detail' => parsed.to_s[0, 300] }] }
      if envelope.dig('errors', 0, 'code') == 'verification_failed'
        raise VerificationError.new(envelope, operation == 'simVerifyDeliveries' ? 'deliveries' : 'calls')
      end

      raise ControlError.new(status, envelope, operation)
    end
  end
end
