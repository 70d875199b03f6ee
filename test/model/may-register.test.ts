import { describe, expect, it } from 'vitest';

import { mayRegister } from '../../src/model/handler/may-register.js';

describe('mayRegister', () => {
  it.each([
    ["import { Worker } from 'bullmq';\nnew Worker('q', charge);", true],
    ["const { Consumer } = require('sqs-consumer');", true],
    ["import { proxyActivities } from '@temporalio/workflow';", true],
    ["import { Worker } from '@temporalio/worker';", true],
    ['const jobMap = { charge };\nexport const run = (job) => jobMap[job.type](job);', true],
    ['(EVENT_PROCESSORS as Registry)[event.name](event);', true],
    // Imports and calls that register nothing another file exports.
    ["import { charge } from './charge.js';\nexport const total = charge(1);", false],
    ["import { Queue } from 'bullmq-pro-like';", false],
    ['const jobs = [1, 2];\njobs[0];', false],
  ])('%s → %s', (text, expected) => {
    expect(mayRegister(text)).toBe(expected);
  });
});
