/*
 * One contender in the two-process lock race (consolidation-lock.test.ts): consolidates the memory
 * folder given in argv through the scripted API at argv's URL, and prints the result as JSON.
 * Run with tsx; not a test itself.
 */
import { AnthropicModelClient } from '../../model/anthropic-client';
import { consolidateNow } from './consolidate';

const [memoryDir, baseURL, startAt] = process.argv.slice(2);
if (!memoryDir || !baseURL || !startAt)
  throw new Error('usage: race-child <memoryDir> <baseURL> <startAtMs>');

// Both contenders wait for the same instant, so they reach the lock together.
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
const result = await consolidateNow({
  memoryDir,
  enabled: true,
  client: new AnthropicModelClient({ apiKey: 'test', baseURL, maxRetries: 0 }),
  model: 'claude-sonnet-4-5',
});
process.stdout.write(`${JSON.stringify({ pid: process.pid, ran: result.ran, message: result.message })}\n`);
