// Writes data/requests.jsonl: support requests with the intent and app they are about.
// Run `node generate.mjs` after editing the list; the file is committed so runs need no build step.
import { writeFileSync } from 'node:fs';

const INTENTS = [
  'reset_password',
  'billing_dispute',
  'cancel_subscription',
  'bug_report',
  'feature_request',
  'account_locked',
  'data_export',
  'refund_request',
];

// [id, app, intent, request, explanation]; app may be a list of accepted spellings (first is canonical).
const ROWS = [
  [
    'slack-reset',
    'Slack',
    'reset_password',
    "I can't remember my Slack password and the login page keeps rejecting me. How do I set a new one?",
    'The user forgot their Slack password and wants to set a new one.',
  ],
  [
    'gmail-reset',
    ['Gmail', 'Google Mail'],
    'reset_password',
    'Forgot the password for my Gmail account, need to change it so I can read my mail again.',
    'The user cannot sign in to Gmail and needs a new password.',
  ],
  [
    'jira-reset',
    'Jira',
    'reset_password',
    'The password reset email from Jira never arrives. I need to change my password today.',
    'The user wants to reset their Jira password; the reset email is not arriving.',
  ],
  [
    'notion-reset',
    'Notion',
    'reset_password',
    'Please help me reset my Notion password, I typed it wrong too many times and forgot it.',
    'The user forgot their Notion password and asks for a reset.',
  ],
  [
    'zoom-reset',
    'Zoom',
    'reset_password',
    'How can I change my Zoom password? I think someone else knows it.',
    'The user wants to change their Zoom password for security reasons.',
  ],
  [
    'stripe-dispute',
    'Stripe',
    'billing_dispute',
    'Stripe charged my card twice for the same invoice this month. I want the duplicate charge investigated.',
    'The user disputes a duplicate Stripe charge.',
  ],
  [
    'zoom-dispute',
    'Zoom',
    'billing_dispute',
    'My Zoom bill shows 25 licences but we only have 10 users. The amount is wrong.',
    'The user disputes an incorrect Zoom bill (too many licences charged).',
  ],
  [
    'slack-dispute',
    'Slack',
    'billing_dispute',
    'We were billed for inactive members in Slack even though fair billing should exclude them.',
    'The user disputes Slack charges for inactive members.',
  ],
  [
    'notion-dispute',
    'Notion',
    'billing_dispute',
    'Notion charged us the annual price but we are on the monthly plan. Please fix this invoice.',
    'The user disputes a Notion invoice billed at the wrong plan price.',
  ],
  [
    'dropbox-dispute',
    'Dropbox',
    'billing_dispute',
    'There is a Dropbox charge on my statement I never authorised.',
    'The user disputes an unauthorised Dropbox charge.',
  ],
  [
    'spotify-cancel',
    'Spotify',
    'cancel_subscription',
    'I want to stop my Spotify Premium subscription at the end of this month.',
    'The user wants to cancel Spotify Premium.',
  ],
  [
    'netflix-cancel',
    'Netflix',
    'cancel_subscription',
    'How do I end my Netflix membership? I do not want to be charged again.',
    'The user wants to cancel their Netflix membership.',
  ],
  [
    'zoom-cancel',
    'Zoom',
    'cancel_subscription',
    'Please cancel our Zoom Pro plan, we moved to another tool.',
    'The user wants to cancel their Zoom Pro plan.',
  ],
  [
    'notion-cancel',
    'Notion',
    'cancel_subscription',
    'Cancel my Notion Plus plan and downgrade me to free.',
    'The user wants to cancel Notion Plus and go back to the free plan.',
  ],
  [
    'github-cancel',
    'GitHub',
    'cancel_subscription',
    'I no longer need GitHub Copilot, please cancel the subscription on my account.',
    'The user wants to cancel their GitHub Copilot subscription.',
  ],
  [
    'slack-bug',
    'Slack',
    'bug_report',
    'Since the last update Slack crashes every time I open a thread with an image.',
    'The user reports a Slack crash when opening threads with images.',
  ],
  [
    'jira-bug',
    'Jira',
    'bug_report',
    'In Jira the board view shows tickets in the wrong column after I drag them.',
    'The user reports a Jira board bug where dragged tickets land in the wrong column.',
  ],
  [
    'gmail-bug',
    ['Gmail', 'Google Mail'],
    'bug_report',
    'Gmail shows an error "Oops, something went wrong" whenever I attach a PDF.',
    'The user reports a Gmail error when attaching PDFs.',
  ],
  [
    'figma-bug',
    'Figma',
    'bug_report',
    'Figma freezes when I export frames as SVG, the tab stops responding.',
    'The user reports that Figma freezes on SVG export.',
  ],
  [
    'trello-bug',
    'Trello',
    'bug_report',
    'Trello due date reminders arrive a day late for everyone on our team.',
    'The user reports late Trello due date reminders.',
  ],
  [
    'zoom-bug',
    'Zoom',
    'bug_report',
    'Screen sharing in Zoom shows a black screen for other participants on macOS.',
    'The user reports a Zoom screen-sharing bug on macOS.',
  ],
  [
    'notion-feature',
    'Notion',
    'feature_request',
    'It would be great if Notion databases could have formulas that reference other workspaces.',
    'The user requests cross-workspace formulas in Notion.',
  ],
  [
    'slack-feature',
    'Slack',
    'feature_request',
    'Could Slack add a way to schedule a message to repeat every Monday?',
    'The user asks for recurring scheduled messages in Slack.',
  ],
  [
    'jira-feature',
    'Jira',
    'feature_request',
    'Please add dark mode to the Jira mobile app, my eyes hurt at night.',
    'The user requests dark mode in the Jira mobile app.',
  ],
  [
    'figma-feature',
    'Figma',
    'feature_request',
    'I wish Figma let me lock a layer for everyone except me.',
    'The user requests per-user layer locking in Figma.',
  ],
  [
    'stripe-feature',
    'Stripe',
    'feature_request',
    'Can Stripe support invoices in more than one currency on the same customer?',
    'The user requests multi-currency invoices per customer in Stripe.',
  ],
  [
    'zoom-feature',
    'Zoom',
    'feature_request',
    'Suggestion: let Zoom hosts mute everyone by default when a meeting starts, for all meetings.',
    'The user suggests a Zoom setting to mute everyone at the start of every meeting.',
  ],
  [
    'github-locked',
    'GitHub',
    'account_locked',
    'GitHub locked my account after I lost my 2FA device. I cannot get in at all.',
    'The user is locked out of GitHub after losing their 2FA device.',
  ],
  [
    'slack-locked',
    'Slack',
    'account_locked',
    'My Slack account got deactivated by mistake and I am locked out of our workspace.',
    'The user is locked out of Slack after a mistaken deactivation.',
  ],
  [
    'stripe-locked',
    'Stripe',
    'account_locked',
    'Stripe suspended our account and payouts are frozen. We need access back.',
    'The user cannot access their suspended Stripe account.',
  ],
  [
    'gmail-locked',
    ['Gmail', 'Google Mail'],
    'account_locked',
    'Gmail says my account is disabled for suspicious activity, I cannot sign in.',
    'The user is locked out of a disabled Gmail account.',
  ],
  [
    'notion-export',
    'Notion',
    'data_export',
    'I need to export my whole Notion workspace as Markdown and CSV.',
    'The user wants to export their Notion workspace.',
  ],
  [
    'slack-export',
    'Slack',
    'data_export',
    'How can I download all messages from our Slack workspace for an audit?',
    'The user wants to export Slack workspace messages for an audit.',
  ],
  [
    'jira-export',
    'Jira',
    'data_export',
    'Please help me export all Jira issues from project OPS to a spreadsheet.',
    'The user wants to export Jira issues to a spreadsheet.',
  ],
  [
    'trello-export',
    'Trello',
    'data_export',
    'Is there a way to get all my Trello boards out as JSON?',
    'The user wants to export Trello boards as JSON.',
  ],
  [
    'spotify-refund',
    'Spotify',
    'refund_request',
    'I was charged for Spotify after I cancelled. Please give me my money back.',
    'The user asks for a refund of a Spotify charge made after cancelling.',
  ],
  [
    'netflix-refund',
    'Netflix',
    'refund_request',
    'Netflix renewed my plan yesterday by accident, I would like a refund for this month.',
    'The user asks for a refund of an accidental Netflix renewal.',
  ],
  [
    'dropbox-refund',
    'Dropbox',
    'refund_request',
    'I upgraded to Dropbox Plus by mistake an hour ago, can I get a refund?',
    'The user asks for a refund of an accidental Dropbox Plus upgrade.',
  ],
  [
    'figma-refund',
    'Figma',
    'refund_request',
    'We paid for 5 Figma editor seats we never used; we want those refunded.',
    'The user asks for a refund of unused Figma seats.',
  ],
  [
    'github-refund',
    'GitHub',
    'refund_request',
    'GitHub billed me for Actions minutes on a repo I deleted, I want a refund.',
    'The user asks GitHub to refund Actions minutes billed for a deleted repository.',
  ],
  [
    'trello-cancel',
    'Trello',
    'cancel_subscription',
    'Please turn off auto-renew and cancel our Trello Premium workspace.',
    'The user wants to cancel Trello Premium.',
  ],
  [
    'dropbox-reset',
    'Dropbox',
    'reset_password',
    'Dropbox keeps saying my password is incorrect. I need a new one.',
    'The user wants to reset their Dropbox password.',
  ],
  [
    'stripe-export',
    'Stripe',
    'data_export',
    'I need a CSV export of all Stripe payments from last year for our accountant.',
    "The user wants a CSV export of last year's Stripe payments.",
  ],
  [
    'figma-locked',
    'Figma',
    'account_locked',
    'Our Figma admin left and now nobody can log into the team account.',
    'The team is locked out of their Figma account after the admin left.',
  ],
];

const PREAMBLE =
  `Route this customer support request. Reply with only a JSON object: {"intent": "...", "app_name": "...", "explanation": "..."}. ` +
  `intent is one of: ${INTENTS.join(', ')}. app_name is the product the request is about. explanation is one short sentence.\n\nRequest: `;

const lines = ROWS.map(([id, app, intent, request, explanation]) => {
  if (!INTENTS.includes(intent)) throw new Error(`${id}: unknown intent ${intent}`);
  const apps = Array.isArray(app) ? app : [app];
  return JSON.stringify({
    id,
    input: PREAMBLE + request,
    expectations: {
      intent,
      app_name: apps.length === 1 ? apps[0] : apps,
      explanation: `A good explanation says, in one sentence: ${explanation}`,
    },
    solution: { reply: JSON.stringify({ intent, app_name: apps[0], explanation }) },
    metadata: { app: apps[0], intent },
  });
});
if (new Set(ROWS.map((r) => r[0])).size !== ROWS.length) throw new Error('duplicate id');
writeFileSync(new URL('data/requests.jsonl', import.meta.url), lines.join('\n') + '\n');
console.log(`wrote ${lines.length} requests`);
