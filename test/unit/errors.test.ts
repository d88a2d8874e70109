// AgentStateError and its subclasses are recognized across copies of the module (the CLI bundle
// and the compiled library both define them).
import { describe, expect, it } from 'vitest';
import * as dist from '../../dist/errors.js';
import { AgentStateError, BusyError, UsageError } from '../../src/errors.js';

describe('AgentStateError instanceof', () => {
  it('recognizes errors from another copy of the module, by class', () => {
    const foreign = new dist.UsageError('bad');
    expect(foreign).toBeInstanceOf(AgentStateError);
    expect(foreign).toBeInstanceOf(UsageError);
    expect(foreign).not.toBeInstanceOf(BusyError);
    expect(new UsageError('x')).toBeInstanceOf(dist.AgentStateError);
  });

  it('does not accept plain errors or look-alikes', () => {
    expect(new Error('x')).not.toBeInstanceOf(AgentStateError);
    expect(Object.assign(new Error('x'), { code: 'USAGE' })).not.toBeInstanceOf(AgentStateError);
    expect(null).not.toBeInstanceOf(AgentStateError);
  });
});
