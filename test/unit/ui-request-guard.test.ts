// Who may read the page: the Host header (DNS rebinding), the Origin, the token.
import { describe, expect, it } from 'vitest';
import { checkRequest, hostAllowed } from '../../src/ui/request-guard.js';

const loopback = { port: 4321, host: '127.0.0.1', token: 'secret-token' };

describe('hostAllowed', () => {
  it('accepts the loopback names and IP literals on the right port', () => {
    for (const host of ['127.0.0.1:4321', 'localhost:4321', '[::1]:4321', 'LOCALHOST:4321'])
      expect(hostAllowed(host, loopback), host).toBe(true);
    expect(hostAllowed('192.168.1.5:4321', loopback)).toBe(true);
  });

  it('refuses DNS names (rebinding), other ports, a missing port and garbage', () => {
    for (const host of [
      'evil.example:4321',
      'localhost.evil.example:4321',
      '127.0.0.1:4322',
      '127.0.0.1',
      '',
      'a:b:c',
      '127.0.0.1:4321/x',
    ])
      expect(hostAllowed(host, loopback), host).toBe(false);
    expect(hostAllowed(undefined, loopback)).toBe(false);
  });

  it('accepts the name given to --host', () => {
    const named = { ...loopback, host: 'devbox.local' };
    expect(hostAllowed('devbox.local:4321', named)).toBe(true);
    expect(hostAllowed('other.local:4321', named)).toBe(false);
  });
});

describe('checkRequest', () => {
  const ok = { host: '127.0.0.1:4321', origin: undefined, token: 'secret-token' };

  it('lets a request with the token through', () => {
    expect(checkRequest(ok, loopback)).toBeNull();
  });

  it('answers 403 without the token, or with a wrong one', () => {
    expect(checkRequest({ ...ok, token: null }, loopback)).toMatchObject({
      status: 403,
      reason: expect.stringContaining('needs the token'),
    });
    expect(checkRequest({ ...ok, token: 'secret-tokem' }, loopback)?.reason).toMatch(/wrong/);
    expect(checkRequest({ ...ok, token: 'short' }, loopback)?.status).toBe(403);
  });

  it('refuses a foreign Host even with the token', () => {
    expect(checkRequest({ ...ok, host: 'rebound.example:4321' }, loopback)).toMatchObject({
      status: 403,
      reason: expect.stringContaining('rebound.example'),
    });
  });

  it('refuses requests from other origins, accepts its own', () => {
    expect(checkRequest({ ...ok, origin: 'http://evil.example' }, loopback)?.status).toBe(403);
    expect(checkRequest({ ...ok, origin: 'http://127.0.0.1:4321' }, loopback)).toBeNull();
  });

  it('needs no token with --no-token, but still checks the Host', () => {
    const open = { ...loopback, token: null };
    expect(checkRequest({ ...ok, token: null }, open)).toBeNull();
    expect(checkRequest({ ...ok, token: null, host: 'evil.example:4321' }, open)?.status).toBe(403);
  });
});
