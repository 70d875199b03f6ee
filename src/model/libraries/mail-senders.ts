/**
 * Mail senders: the calls of email libraries and providers' SDKs that send a message. A second
 * run of a handler that sends one sends the email again; none of these deduplicates by content.
 * One row per library, as data; each call's behaviour is checked in the library's documentation,
 * cited on the row.
 */
export interface MailSender {
  /** The library, as the inventory names the effect's target. */
  library: string;
  /** The method that sends, as the last names of the callee (`['emails', 'send']` for `resend.emails.send`). */
  path: readonly string[];
  /**
   * What the receiver must be: imported or constructed from one of these modules, or (for a client
   * a project builds in another module) named like one. A row with neither takes any receiver.
   */
  modules?: readonly string[];
  named?: RegExp;
}

export const MAIL_SENDERS: readonly MailSender[] = [
  // https://nodemailer.com/usage/#sending-mail: `transporter.sendMail(data[, callback])` sends one
  // message; the name is nodemailer's own and the projects' transports built on it keep it.
  { library: 'nodemailer', path: ['sendMail'] },
  // https://resend.com/docs/api-reference/emails/send-email (`resend.emails.send`) and
  // https://resend.com/docs/api-reference/emails/send-batch-emails (`resend.batch.send`).
  { library: 'resend', path: ['emails', 'send'], modules: ['resend'], named: /resend/i },
  { library: 'resend', path: ['batch', 'send'], modules: ['resend'], named: /resend/i },
  // https://github.com/sendgrid/sendgrid-nodejs/tree/main/packages/mail#quick-start: `sgMail.send(msg)`,
  // `sgMail.sendMultiple(msg)`.
  { library: 'sendgrid', path: ['send'], modules: ['@sendgrid/mail'], named: /^sg_?mail$|sendgrid/i },
  { library: 'sendgrid', path: ['sendMultiple'], modules: ['@sendgrid/mail'], named: /^sg_?mail$|sendgrid/i },
  // https://postmarkapp.com/developer/integration/official-libraries#node-js:
  // `client.sendEmail(...)`, `sendEmailWithTemplate`, `sendEmailBatch`.
  { library: 'postmark', path: ['sendEmail'], modules: ['postmark'], named: /postmark/i },
  { library: 'postmark', path: ['sendEmailWithTemplate'], modules: ['postmark'], named: /postmark/i },
  { library: 'postmark', path: ['sendEmailBatch'], modules: ['postmark'], named: /postmark/i },
  // https://github.com/mailgun/mailgun.js#messages: `mg.messages.create(domain, data)`.
  { library: 'mailgun', path: ['messages', 'create'], modules: ['mailgun.js', 'mailgun-js'], named: /^mg$|mailgun/i },
];

/**
 * Amazon SES's send commands (`client.send(new SendEmailCommand(input))`), v1 and v2 of the API
 * (https://docs.aws.amazon.com/AWSJavaScriptSDK/v3/latest/client/ses/command/SendEmailCommand/,
 * .../client/sesv2/command/SendEmailCommand/).
 */
export const SES_SEND_COMMAND = /^Send(?:Raw|Templated|Bulk|BulkTemplated|CustomVerification)?Email(?:Command)?$/;
/** The SES clients' modules, whose `send` with such a command sends mail. */
export const SES_MODULES: readonly string[] = ['@aws-sdk/client-ses', '@aws-sdk/client-sesv2'];
