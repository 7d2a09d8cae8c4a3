// Writes data/corpus.jsonl (the help-centre articles the agent searches) and data/questions.jsonl
// (the samples: a question, the ids of the articles that answer it, and the oracle's reply).
// Run `node generate.mjs` after editing the lists; the files are committed so runs need no build step.
import { writeFileSync } from 'node:fs';

// [id, text]: short articles of a fictional project-management service's help centre.
const ARTICLES = [
  ['billing-cycle', 'Invoices are issued on the first day of each month. The invoice covers usage from the previous calendar month and is charged to the card on file.'],
  ['billing-currency', 'Accounts are billed in US dollars by default. Customers in the European Union can switch their billing currency to euros under Settings, Billing.'],
  ['refund-policy', 'Refunds for annual plans are prorated when requested within 30 days of renewal. Monthly plans are not refunded, but cancelling stops the next charge.'],
  ['cancel-plan', 'To cancel a subscription, open Settings, Plan and choose Cancel plan. The workspace stays active until the end of the paid period.'],
  ['password-reset', 'To reset a password, click Forgot password on the sign-in page. The reset link is emailed and expires after 60 minutes.'],
  ['two-factor', 'Two-factor authentication can use an authenticator app or a hardware security key. SMS codes are not supported because they can be intercepted.'],
  ['sso', 'Single sign-on with SAML is available on the Enterprise plan. Okta, Azure AD and Google Workspace are supported identity providers.'],
  ['api-rate-limits', 'The REST API allows 600 requests per minute per token. Requests over the rate limit receive HTTP 429 with a Retry-After header.'],
  ['api-tokens', 'API tokens are created under Settings, Developer. A token is shown once at creation and can be revoked at any time.'],
  ['webhooks', 'Webhooks deliver events as signed POST requests. Failed deliveries are retried with exponential backoff for up to 24 hours.'],
  ['data-export', 'Workspace owners can export all data as a ZIP archive of JSON files. Large exports are prepared in the background and a download link is emailed.'],
  ['data-retention', 'Deleted projects stay in the trash for 30 days before they are removed for good. Backups are retained for 90 days.'],
  ['data-residency', 'Data is stored in Frankfurt for EU workspaces and in Oregon for all others. The data location is chosen when the workspace is created and cannot be moved later.'],
  ['storage-limits', 'The Free plan includes 5 GB of file storage, the Team plan 100 GB per member. The largest file you can upload is 2 GB.'],
  ['plans-compare', 'The Free plan allows up to three members in a workspace. The Team plan adds unlimited members, guest access and priority email support.'],
  ['guests', 'Guests can view and comment on shared projects but cannot create projects of their own. Guest seats are free on the Team plan.'],
  ['invite-members', 'Admins invite members from the People page by entering email addresses. Invitations expire after seven days.'],
  ['roles', 'Workspaces have three roles: owner, admin and member. Only the owner is allowed to delete the workspace or change the billing plan.'],
  ['mobile-offline', 'The mobile apps keep the last opened projects available offline. Changes made offline sync automatically when the phone reconnects.'],
  ['notifications', 'Email notifications can be limited to mentions and assignments under Settings, Notifications. A daily digest replaces individual notification emails when enabled.'],
  ['integrations-slack', 'The Slack integration posts task updates to a chosen channel. Each project can be connected to one Slack channel.'],
  ['integrations-github', 'Linking a GitHub repository shows pull requests on tasks. Mentioning a task key in a commit message links the commit to the task.'],
  ['import-csv', 'Tasks can be imported from a CSV file with a title column. Columns for assignee, due date and status are mapped during the import.'],
  ['uptime-sla', 'The Enterprise plan guarantees 99.9 percent monthly uptime. Service credits are granted when uptime falls below it.'],
  ['status-page', 'Incidents and planned maintenance are announced on the public status page. Customers can subscribe to status updates by email or RSS.'],
  ['support-hours', 'Support answers email around the clock. Enterprise customers can reach support by phone on weekdays from 8:00 to 18:00 Central European Time.'],
  ['accessibility', 'The web app follows WCAG 2.1 level AA. All actions are reachable by keyboard and screen readers announce task changes.'],
  ['audit-log', 'The audit log records sign-ins, permission changes and exports and keeps them for one year. It is available to owners on the Enterprise plan.'],
  ['browser-support', 'The web app supports the two latest versions of Chrome, Firefox, Safari and Edge. Internet Explorer is not supported.'],
  ['time-tracking', 'Time can be logged on any task with the timer or by entering hours. Reports sum logged time per member and per project.'],
];

// [id, question, expected article ids, the oracle's reply: the index of the sentence of the first
// article that answers it, or the reply itself]
const QUESTIONS = [
  ['invoice-date', 'When are invoices issued?', ['billing-cycle'], 0],
  ['pay-in-euros', 'Can I switch my billing currency to euros?', ['billing-currency'], 1],
  ['annual-refund', 'Are refunds given for annual plans?', ['refund-policy'], 0],
  ['reset-link', 'How long before a password reset link expires?', ['password-reset'], 1],
  ['sms-codes', 'Are SMS codes supported for two-factor authentication?', ['two-factor'], 1],
  ['sso-providers', 'Which identity providers are supported for single sign-on?', ['sso'], 1],
  ['rate-limit', 'What happens to requests over the API rate limit?', ['api-rate-limits'], 1],
  ['webhook-retries', 'How long are failed webhook deliveries retried?', ['webhooks'], 1],
  ['export-data', 'How can I export all data of my workspace?', ['data-export'], 0],
  ['trash', 'How long do deleted projects stay in the trash?', ['data-retention'], 0],
  ['move-region', 'Can the data location of my workspace be moved later?', ['data-residency'], 1],
  ['largest-upload', 'What is the largest file I can upload?', ['storage-limits'], 1],
  ['free-members', 'How many members does the Free plan allow?', ['plans-compare'], 0],
  ['guest-projects', 'Can guests create projects of their own?', ['guests'], 0],
  ['delete-workspace', 'Who is allowed to delete the workspace?', ['roles'], 1],
  ['offline-sync', 'Do changes made offline sync when my phone reconnects?', ['mobile-offline'], 1],
  ['digest', 'How do I get a daily digest instead of individual notification emails?', ['notifications'], 1],
  ['commit-link', 'How do I link a commit to a task?', ['integrations-github'], 1],
  ['uptime', 'What monthly uptime does the Enterprise plan guarantee?', ['uptime-sla'], 0],
  ['ie', 'Is Internet Explorer supported by the web app?', ['browser-support'], 1],
  ['phone-support', 'When can Enterprise customers reach support by phone?', ['support-hours'], 1],
  ['audit-retention', 'How long does the audit log keep sign-ins and permission changes?', ['audit-log'], 0],
  // Worded unlike the article: TF-IDF ranks it lower, or misses it (the oracle's reply written out).
  ['lost-login', 'I forgot my login, how do I get back into my account?', ['password-reset'], 'If you forgot your login, click Forgot password on the sign-in page to get back into your account.'],
  ['pay-yearly-quit', 'I want to pay for the whole year, is part of it refunded if I quit early?', ['refund-policy'], 'If you quit within 30 days of renewal, the part of the year you do not use is refunded.'],
  ['leave-service', 'How do I stop paying and leave the service?', ['cancel-plan'], 'To stop paying and leave the service, cancel your plan under Settings, Plan.'],
  ['team-chat', 'Can task updates be posted to our team chat?', ['integrations-slack'], 0],
  ['spreadsheet', 'Can I bring my tasks over from a spreadsheet?', ['import-csv'], 0],
  ['no-mouse', 'Can I use the app without a mouse?', ['accessibility'], 'Yes, you can use the app without a mouse: every action is reachable by keyboard.'],
  ['outage', 'Where can I see whether there is an outage right now?', ['status-page'], 'You can see whether there is an outage right now on the public status page.'],
];

const text = new Map(ARTICLES);
const sentences = (t) => t.match(/[^.!?]+[.!?]+/g).map((s) => s.trim());
const line = (o) => JSON.stringify(o) + '\n';

writeFileSync('data/corpus.jsonl', ARTICLES.map(([id, t]) => line({ id, text: t })).join(''));
writeFileSync(
  'data/questions.jsonl',
  QUESTIONS.map(([id, input, ids, at]) => {
    if (!ids.every((x) => text.has(x))) throw new Error(`${id}: unknown article in ${ids}`);
    const reply = typeof at === 'string' ? at : sentences(text.get(ids[0]))[at];
    return line({ id, input, expected_contexts: ids, solution: { reply } });
  }).join(''),
);
