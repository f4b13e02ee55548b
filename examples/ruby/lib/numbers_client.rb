# frozen_string_literal: true

require 'json'
require 'net/http'

# A small client of the provider's /api/v1, as a client team writes one: list numbers, order two, wait for the order.
class NumbersClient
  def initialize(url, key, retries: 2)
    @base = "#{url.chomp('/')}/api/v1"
    @key = key
    @retries = retries
  end

  def call(method, path, body = nil)
    attempt = 0
    loop do
      uri = URI("#{@base}#{path}")
      headers = { 'authorization' => "Bearer #{@key}", 'accept' => 'application/json', 'content-type' => 'application/json' }
      request = Net::HTTPGenericRequest.new(method, !body.nil?, true, uri.request_uri, headers)
      request.body = JSON.generate(body) unless body.nil?
      answer = Net::HTTP.start(uri.host, uri.port) { |http| http.request(request) }
      # the provider's 5xx are worth another try; anything else is the caller's to handle
      if answer.code.to_i < 500 || attempt == @retries
        raise "#{method} #{path} answered #{answer.code}: #{answer.body}" if answer.code.to_i >= 400

        return answer.body.to_s.empty? ? nil : JSON.parse(answer.body)
      end
      attempt += 1
      sleep 0.05 * attempt
    end
  end

  def numbers = call('GET', '/numbers')['results'].map { |r| r['data']['number'] }

  def order_two(npa: '312', state: 'IL')
    cart = call('POST', '/carts', { 'type' => 'cart', 'data' => { 'name' => "order #{Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)}" } })['data']
    call('POST', "/carts/#{cart['id']}/requests", { 'type' => 'request', 'data' => {
           'type' => 'NEW_NUMBERS', 'data' => { 'npa' => npa, 'state' => state, 'number_type' => 'TENDLC', 'quantity' => '2' }
         } })
    call('POST', "/carts/#{cart['id']}/checkout")['data']
  end

  # Polls the order until it ends; the block moves time on between polls (a test's clock).
  def wait_for_order(id, attempts: 50)
    attempts.times do
      order = call('GET', "/orders/#{id}")['data']
      return order if %w[COMPLETED ERROR CANCELLED].include?(order['status'])

      yield
    end
    raise "order #{id} did not end"
  end
end
