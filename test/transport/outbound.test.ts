import { describe, expect, it } from 'vitest';
import { classify, normalizeHost, OutboundPolicy } from '../../src/engine/transport/outbound.js';

describe('outbound policy', () => {
  it('normalizes every spelling of an address before judging it', () => {
    for (const spelling of ['127.1', '2130706433', '0x7f.0.0.1', '0177.0.0.1', '::ffff:127.0.0.1', '[::ffff:7f00:1]'])
      expect(normalizeHost(spelling), spelling).toBe('127.0.0.1');
    expect(normalizeHost('Hooks.Example.COM.')).toBe('hooks.example.com');
    expect(normalizeHost('0')).toBe('0.0.0.0');
    expect(normalizeHost('08.1')).toBe('08.1'); // not an address: 8 is no octal digit
  });

  it('classes addresses', () => {
    expect(classify('169.254.169.254')).toBe('metadata');
    expect(classify('fd00:ec2::254')).toBe('metadata');
    expect(classify('169.254.1.1')).toBe('link-local');
    expect(classify('fe80::1')).toBe('link-local');
    expect(classify('0.0.0.0')).toBe('unspecified');
    expect(classify('::')).toBe('unspecified');
    expect(classify('255.255.255.255')).toBe('multicast');
    expect(classify('10.1.2.3')).toBe('private');
    expect(classify('172.31.0.1')).toBe('private');
    expect(classify('fd12::1')).toBe('private');
    expect(classify('::1')).toBe('loopback');
    expect(classify('127.9.9.9')).toBe('loopback');
    expect(classify('::ffff:a9fe:a9fe')).toBe('metadata');
    expect(classify('8.8.8.8')).toBe('public');
  });

  it('refuses metadata, link-local and unspecified targets by default, loopback and private only when denied', () => {
    const open = new OutboundPolicy();
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:169.254.169.254]/',
      'http://0.0.0.0:8080/',
      'http://0/',
      'http://[fe80::1]/',
      'sftp://2852039166/upload', // 169.254.169.254 as one number
    ])
      expect(open.denial(url), url).toMatch(/is a (metadata|unspecified|link-local) address/);
    for (const url of ['http://127.1:9/', 'http://10.0.0.1/', 'http://[::1]:9/', 'https://hooks.example.com/'])
      expect(open.denial(url), url).toBeNull();

    const closed = new OutboundPolicy({ deny: ['private', 'loopback'] });
    expect(closed.denial('http://2130706433:9/')).toBe('127.0.0.1 is a loopback address (--outbound-deny loopback)');
    expect(closed.denial('http://[::ffff:7f00:1]:9/')).toContain('loopback');
    expect(closed.denial('http://192.168.1.10/')).toContain('private');
    expect(closed.denial('https://hooks.example.com/')).toBeNull();
  });

  it('an allow list compares normalized host names', () => {
    const policy = new OutboundPolicy({ allow: ['hooks.example.com', '*.corp.example'] });
    expect(policy.denial('https://HOOKS.example.com./x')).toBeNull();
    expect(policy.denial('https://a.b.corp.example/x')).toBeNull();
    expect(policy.denial('https://evil.example/x')).toBe('evil.example is not in --outbound-allow');
    expect(policy.denial('http://a b/')).toBe('the target is not a URL');
  });

  it('checks the address a name resolves to, at connect', async () => {
    const closed = new OutboundPolicy({ deny: ['loopback'] });
    expect(closed.denial('http://localhost:9/')).toBeNull(); // a name: judged when it is resolved
    await expect(closed.resolve('localhost')).rejects.toThrow(/localhost: .* is a loopback address/);
    await expect(new OutboundPolicy().resolve('localhost')).resolves.toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});
