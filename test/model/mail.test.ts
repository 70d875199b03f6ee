import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { getWrite, effectOf } from '../../src/model/writes.js';
import { lintSnippet } from '../rule-tester.js';

/** Each call of `code` that writes, as `line: effect`. */
function writesIn(code: string): string[] {
  const found: string[] = [];
  lintSnippet(code, (context) => ({
    CallExpression(node: TSESTree.CallExpression) {
      const write = getWrite(node, context);
      if (write) found.push(`${node.loc.start.line}: ${effectOf(write)}`);
    },
  }));
  return found;
}

describe('mail sends', () => {
  it('counts the sends of mail libraries and providers as writes, each with its library', () => {
    expect(
      writesIn(`import nodemailer from 'nodemailer';
import { Resend } from 'resend';
import sgMail from '@sendgrid/mail';
import * as postmark from 'postmark';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
const transporter = nodemailer.createTransport({ host: 'smtp' });
const resend = new Resend(process.env.RESEND_KEY);
const client = new postmark.ServerClient('token');
const ses = new SESClient({});
export async function notify(to: string, emailTransport: { sendMail: Function }) {
  await transporter.sendMail({ to, subject: 'Hi' });
  await emailTransport.sendMail({ to });
  await resend.emails.send({ to, from: 'a@b.c', subject: 'Hi' });
  await sgMail.send({ to, from: 'a@b.c' });
  await client.sendEmail({ To: to });
  await ses.send(new SendEmailCommand({ Destination: { ToAddresses: [to] } }));
}`),
    ).toEqual(['11: mail', '12: mail', '13: mail', '14: mail', '15: mail', '16: mail']);
  });

  it('does not take look-alikes for sends: a queue, a socket, another client, reads of the same SDKs', () => {
    expect(
      writesIn(`import { Resend } from 'resend';
import { SESClient, GetSendQuotaCommand } from '@aws-sdk/client-ses';
const resend = new Resend('key');
const ses = new SESClient({});
export async function other(queue, socket, client, to) {
  await queue.send({ to });
  socket.send('hello');
  await client.sendEmail({ to });
  await resend.emails.get('id');
  await ses.send(new GetSendQuotaCommand({}));
}`),
    ).toEqual([]);
  });
});
