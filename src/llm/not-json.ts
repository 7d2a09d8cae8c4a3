// The SDK's error for an answer that is not JSON (not-json-message.ts words it).
import { APIError } from 'openai/error';
import { notJsonMessage } from './not-json-message.ts';

/**
 * Keeps the SDK's class (its status drives retries and outage blame as any HTTP error's does), with
 * a message that is the whole cause.
 */
export class NotJsonAnswer extends APIError {
  readonly cause_line: string;
  constructor(url: string, status: number, contentType: string, text: string, headers: Headers) {
    const line = notJsonMessage('POST', url, status, contentType, text);
    super(status, undefined, line, headers);
    this.cause_line = line;
  }
}
