// Writes env/db/orders.jsonl and data/tasks.jsonl. Every sample starts from the same store; each
// customer's request touches their own orders, and the `database` expectation also pins the
// orders that must stay as they were. Run: node benchmarks/support-desk/generate.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const o = (id, customer, status, items, address, total, refunded = 0) => ({
  id,
  customer,
  status,
  items,
  address,
  total,
  refunded,
});
const orders = [
  o('A1001', 'maria.garcia@example.com', 'pending', '2 ceramic mugs', '12 Elm Street Springfield', 59.9),
  o('A1002', 'maria.garcia@example.com', 'delivered', 'tea kettle', '12 Elm Street Springfield', 34.5),
  o('A1003', 'john.smith@example.com', 'pending', 'desk lamp', '3 Birch Road Shelbyville', 45),
  o('A1004', 'john.smith@example.com', 'shipped', 'notebook set', '3 Birch Road Shelbyville', 18.75),
  o('A1005', 'lee.wong@example.com', 'delivered', 'blender and 2 glasses', '88 Harbor Lane Portside', 120),
  o('A1006', 'ana.silva@example.com', 'delivered', 'yoga mat', '5 Maple Court Greenfield', 29.99),
  o('A1007', 'ana.silva@example.com', 'shipped', 'water bottle', '5 Maple Court Greenfield', 22),
  o('A1008', 'omar.haddad@example.com', 'delivered', 'headphones', '41 Cedar Avenue Northgate', 89.99),
  o('A1009', 'omar.haddad@example.com', 'pending', 'phone case', '41 Cedar Avenue Northgate', 15.49),
  o('A1010', 'kim.park@example.com', 'delivered', 'scented candles', '9 Willow Way Eastwood', 24.5),
  o('A1011', 'kim.park@example.com', 'shipped', 'picture frame', '9 Willow Way Eastwood', 31.25),
  o('A1012', 'priya.nair@example.com', 'pending', 'bookshelf', '77 Aspen Drive Westfield', 149),
  o('A1013', 'priya.nair@example.com', 'pending', 'floor lamp', '77 Aspen Drive Westfield', 64.2),
  o('A1014', 'tom.becker@example.com', 'delivered', 'running shoes', '2 Oak Hill Rivertown', 50),
  o('A1015', 'sofia.rossi@example.com', 'delivered', 'coffee grinder', '16 Pine Street Hillcrest', 89.99),
  o('A1016', 'david.cohen@example.com', 'pending', 'backpack', '230 Lake Road Brookside', 72.4),
  o('A1017', 'david.cohen@example.com', 'pending', 'umbrella', '230 Lake Road Brookside', 19.99),
  o('A1018', 'emma.jones@example.com', 'cancelled', 'wall clock', '64 River Street Millbrook', 42, 42),
  o('A1019', 'lee.wong@example.com', 'pending', 'cutting board', '88 Harbor Lane Portside', 27.3),
  o('A1020', 'tom.becker@example.com', 'pending', 'sports socks', '2 Oak Hill Rivertown', 12),
];
const line = (r) =>
  `{"id":"${r.id}","customer":"${r.customer}","status":"${r.status}","items":"${r.items}","address":"${r.address}","total":${r.total.toFixed(2)},"refunded":${r.refunded.toFixed(2)}}`;
writeFileSync(join(here, 'env/db/orders.jsonl'), orders.map(line).join('\n') + '\n');

const byId = Object.fromEntries(orders.map((r) => [r.id, r]));
/** The database expectation: the changed fields, plus status and refunds of orders that must not change. */
const db = (changes, untouched = []) => {
  const out = {};
  for (const [id, fields] of Object.entries(changes))
    for (const [k, v] of Object.entries(fields)) out[`${id}.${k}`] = v;
  for (const id of untouched) for (const k of ['status', 'refunded', 'address']) out[`${id}.${k}`] ??= byId[id][k];
  return out;
};

const samples = [
  {
    id: 'cancel-pending-order',
    input: 'Hi, I ordered two mugs last week but I do not need them anymore. Can you cancel the order?',
    instruction:
      'You are Maria Garcia (maria.garcia@example.com). You want to cancel your order A1001 (2 ceramic mugs). Give the order id when asked. Do not cancel anything else.',
    commands: ['bin/cancel_order A1001'],
    reply: 'Your order A1001 is cancelled and the full 59.90 has been refunded.',
    database: db({ A1001: { status: 'cancelled', refunded: 59.9 } }, ['A1002']),
    tell: ['A1001', '59.90'],
  },
  {
    id: 'change-address-pending',
    input: 'I moved! Please send my desk lamp order to my new address.',
    instruction:
      'You are John Smith (john.smith@example.com). Your desk lamp order is A1003. Your new address is "48 Oak Avenue Riverton". Only change that order.',
    commands: ['bin/change_address A1003 "48 Oak Avenue Riverton"'],
    reply: 'Done: order A1003 will now ship to 48 Oak Avenue Riverton.',
    database: db({ A1003: { address: '48 Oak Avenue Riverton', status: 'pending' } }, ['A1004']),
    tell: ['48 Oak Avenue'],
  },
  {
    id: 'partial-refund-damaged',
    input: 'One of the two glasses in my blender order arrived broken. I would like a refund for it.',
    instruction:
      'You are Lee Wong (lee.wong@example.com), order A1005. A glass costs 15.00 and one arrived broken: you want a refund of 15.00 for it, nothing more. Do not touch your other order.',
    commands: ['bin/refund A1005 15.00'],
    reply: 'I have refunded 15.00 for the broken glass on order A1005.',
    database: db({ A1005: { status: 'delivered', refunded: 15 } }, ['A1019']),
    tell: ['15.00'],
  },
  {
    id: 'cancel-shipped-refused',
    input: 'Please cancel my water bottle order, I found one in a shop.',
    instruction:
      'You are Ana Silva (ana.silva@example.com), order A1007. You want it cancelled. If the assistant says it cannot be cancelled, accept that and end the conversation; do not ask for anything else.',
    commands: ['bin/get_order A1007'],
    reply: 'Order A1007 has already shipped, so it can no longer be cancelled.',
    database: db({}, ['A1006', 'A1007']),
    tell: ['shipped'],
  },
  {
    id: 'cancel-without-order-id',
    input: 'I want to cancel the phone case I ordered, but I lost the confirmation email.',
    instruction:
      'You are Omar Haddad (omar.haddad@example.com). You do not know the order id; give your email when asked. You want the phone case order cancelled; keep the headphones.',
    commands: ['bin/list_orders omar.haddad@example.com', 'bin/cancel_order A1009'],
    reply: 'I found your phone case order A1009 and cancelled it; 15.49 has been refunded.',
    database: db({ A1009: { status: 'cancelled', refunded: 15.49 } }, ['A1008']),
    tell: ['A1009'],
  },
  {
    id: 'full-refund-delivered',
    input: 'The candles I received smell of nothing at all. I want my money back for the whole order.',
    instruction:
      'You are Kim Park (kim.park@example.com), order A1010 (scented candles, delivered). You want a full refund of that order and nothing else.',
    commands: ['bin/refund A1010 24.50'],
    reply: 'I refunded the full 24.50 for order A1010.',
    database: db({ A1010: { status: 'delivered', refunded: 24.5 } }, ['A1011']),
    tell: ['24.50'],
  },
  {
    id: 'address-change-shipped-refused',
    input: 'Can you change the delivery address of my picture frame order? I will be at my office.',
    instruction:
      'You are Kim Park (kim.park@example.com), order A1011. You want it delivered to "100 Main Street Eastwood". If it cannot be changed, accept that and end the conversation.',
    commands: ['bin/get_order A1011'],
    reply: 'Order A1011 has already shipped, so its address cannot be changed any more.',
    database: db({}, ['A1010', 'A1011']),
    tell: ['shipped'],
  },
  {
    id: 'cancel-one-of-two',
    input: 'I have two open orders with you. Please cancel the lamp, but I still want the bookshelf.',
    instruction:
      'You are Priya Nair (priya.nair@example.com). Cancel only the floor lamp order; the bookshelf order must stay. You do not remember the order ids; give your email when asked.',
    commands: ['bin/list_orders priya.nair@example.com', 'bin/cancel_order A1013'],
    reply: 'The floor lamp order A1013 is cancelled (64.20 refunded); your bookshelf order A1012 is unchanged.',
    database: db({ A1013: { status: 'cancelled', refunded: 64.2 } }, ['A1012']),
    tell: ['A1013'],
  },
  {
    id: 'refund-capped-at-total',
    input: 'My running shoes fell apart after a week. I want 80 back for the trouble.',
    instruction:
      'You are Tom Becker (tom.becker@example.com), order A1014. You ask for a refund of 80. If the assistant says that is more than the order, accept the most that can be refunded. Do not touch your other order.',
    commands: ['bin/refund A1014 50.00'],
    reply: 'The most I can refund on order A1014 is its total, 50.00, and I have refunded that.',
    database: db({ A1014: { status: 'delivered', refunded: 50 } }, ['A1020']),
    tell: ['50.00'],
  },
  {
    id: 'order-status-question',
    input: 'Has my coffee grinder arrived, according to you? And how much did I pay?',
    instruction:
      'You are Sofia Rossi (sofia.rossi@example.com), order A1015. You only want to know its status and what you paid. You do not want anything changed.',
    commands: ['bin/get_order A1015'],
    reply: 'Order A1015 (coffee grinder) was delivered; you paid 89.99.',
    database: db({}, ['A1015']),
    tell: ['delivered', '89.99'],
  },
  {
    id: 'change-address-and-cancel',
    input: 'Two things: my backpack should go to my new flat, and please cancel the umbrella.',
    instruction:
      'You are David Cohen (david.cohen@example.com). The backpack order is A1016; the new address is "7 Pine Road Lakeside". The umbrella order is A1017 and should be cancelled.',
    commands: ['bin/change_address A1016 "7 Pine Road Lakeside"', 'bin/cancel_order A1017'],
    reply: 'Order A1016 will ship to 7 Pine Road Lakeside, and order A1017 is cancelled with 19.99 refunded.',
    database: db({
      A1016: { address: '7 Pine Road Lakeside', status: 'pending' },
      A1017: { status: 'cancelled', refunded: 19.99 },
    }),
    tell: ['7 Pine Road', 'A1017'],
  },
  {
    id: 'refund-already-cancelled',
    input: 'I never got a refund for the wall clock I cancelled. Can you refund it now?',
    instruction:
      'You are Emma Jones (emma.jones@example.com), order A1018. You believe you were not refunded. When the assistant tells you the amount that was already refunded, accept it and end the conversation.',
    commands: ['bin/get_order A1018'],
    reply:
      'Order A1018 was cancelled and the full 42.00 was already refunded to you, so there is nothing more to refund.',
    database: db({}, ['A1018']),
    tell: ['42.00'],
  },
];

const rows = samples.map((s) => ({
  id: s.id,
  input: s.input,
  user: { instruction: s.instruction },
  files: 'env',
  tests: 'tests',
  setup: ['chmod 755 bin/*'],
  solution: { commands: s.commands, reply: s.reply },
  expectations: { database: s.database, 'tells the customer': s.tell },
}));
writeFileSync(join(here, 'data/tasks.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
console.log(`wrote ${orders.length} orders and ${rows.length} samples`);
