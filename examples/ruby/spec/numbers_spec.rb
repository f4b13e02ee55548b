# frozen_string_literal: true

RSpec.describe NumbersClient do
  let(:box) { dipswitch_sandbox }
  let(:client) { NumbersClient.new(box.url, box.keys.admin) }

  it 'survives a 503 while listing numbers' do
    rule = box.faults.add(match: { 'operation_id' => 'listNumbers' }, effect: { 'status' => 503 }, times: 1)
    expect(client.numbers.size).to eq(10)
    expect(box.faults.get(rule.id).fired).to eq(1)
    box.requests.verify(match: { 'operation_id' => 'listNumbers', 'status' => 503 }, count: { 'exactly' => 1 })
    box.requests.verify(match: { 'operation_id' => 'listNumbers', 'status' => 200 }, count: { 'exactly' => 1 })
  end

  it 'orders two numbers and waits for them on the clock, its ORDER events at our receiver' do
    Dipswitch::Receiver.open do |events|
      client.call('POST', '/event_subscriptions', { 'type' => 'event_subscription', 'data' => {
                    'protocol' => 'HTTP', 'data' => events.url(box.receiver_host, '/events'), 'topics' => ['ORDER']
                  } })
      order = client.order_two
      done = client.wait_for_order(order['id']) { box.clock.advance(by: 'PT10M') }
      expect(done['status']).to eq('COMPLETED')
      box.deliveries.wait_for({ 'kind' => 'event', 'body' => { 'data' => { 'resource' => { 'data' => { 'status' => 'COMPLETED' } } } } })
      expect(events.received.map(&:body).grep(/COMPLETED/).first).to include(order['id'])
    end
  end

  it 'receives an inbound SMS at our webhook, signed' do
    Dipswitch::Receiver.open do |receiver|
      switch = client.call('POST', '/switches', { 'type' => 'switch', 'data' => {
                             'name' => 'webhook', 'sms_enabled' => true, 'sms_protocol' => 'HTTP',
                             'sms_data' => receiver.url(box.receiver_host, '/sms'),
                             'sms_auth_method' => 'HMAC_SHA256', 'sms_secret' => 'team secret'
                           } })['data']
      client.call('PATCH', "/numbers/#{URI.encode_www_form_component(box.numbers.first)}",
                  { 'type' => 'did', 'data' => { 'switch_id' => switch['id'] } })
      box.inbound.sms(to: box.numbers.first, from: '+14155550123', text: 'hello team')
      sms = receiver.wait_for(1).first
      expect(Dipswitch::Signature.verify(sms.headers['authorization'], sms.body, 'team secret')).to be(true)
      expect(JSON.parse(sms.body)['data']['text']).to eq('hello team')
    end
  end

  it 'names the near misses of a missed verify' do
    client.call('POST', '/carts', { 'type' => 'cart', 'data' => { 'name' => 'launch' } })
    expect { box.requests.verify(match: { 'operation_id' => 'createCart', 'body' => { 'data' => { 'name' => 'lunch' } } }) }
      .to raise_error(Dipswitch::VerificationError) { |e|
        expect(e.near_misses.first.differences.first.to_h).to include('field' => '/body/data/name', 'actual' => 'launch')
      }
  end
end
