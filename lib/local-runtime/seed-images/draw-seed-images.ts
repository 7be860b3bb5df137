/**
 * Draws the seed catalog's product pictures (`npx tsx lib/local-runtime/seed-images/draw-seed-images.ts`):
 * one small, flat SVG per product, made for this project from a handful of shapes, a
 * category colour and a short label. The output is checked in next to this file; nothing
 * is drawn or downloaded when the stack runs.
 */
import { writeFileSync } from 'node:fs';
import { SEED_CATALOG } from '../../../functions/domain/catalog/seed-catalog';

type Shape =
  | 'glove'
  | 'mask'
  | 'shield'
  | 'gown'
  | 'cap'
  | 'bottle'
  | 'spray'
  | 'jug'
  | 'canister'
  | 'roll'
  | 'stack'
  | 'box'
  | 'pen'
  | 'clipboard'
  | 'folder'
  | 'cup'
  | 'syringe'
  | 'pouch'
  | 'notes';

const TINTS: Readonly<Record<string, { bg: string; ink: string; fill: string }>> = {
  'Gloves & PPE': { bg: '#e8f1fb', ink: '#1d4f86', fill: '#5b9bd5' },
  'Cleaning & Disinfection': { bg: '#e7f6ef', ink: '#1f6b4a', fill: '#4fb387' },
  'Office Supplies': { bg: '#fbf3e4', ink: '#8a5a12', fill: '#e2a33c' },
  Breakroom: { bg: '#f7ece8', ink: '#7a3b26', fill: '#c7714f' },
  'Clinical Disposables': { bg: '#efecf8', ink: '#46387f', fill: '#8a78d0' },
};

/** Each product's shape and label, by product id. */
const PICTURES: Readonly<Record<string, [Shape, string]>> = {
  'GLV-NIT-S-100': ['glove', 'S'],
  'GLV-NIT-M-100': ['glove', 'M'],
  'GLV-NIT-L-100': ['glove', 'L'],
  'MSK-L3-50': ['mask', 'L3'],
  'RSP-N95-20': ['mask', 'N95'],
  'FSH-ANTIFOG-10': ['shield', ''],
  'GWN-ISO-L2-10': ['gown', ''],
  'BNF-CAP-100': ['cap', ''],
  'WIP-CAVI-160': ['canister', '160'],
  'SPR-DIS-24OZ': ['spray', ''],
  'HSN-GEL-1L': ['bottle', '1 L'],
  'SOAP-FOAM-1L': ['bottle', 'SOAP'],
  'ENZ-INST-1GAL': ['jug', 'ENZ'],
  'EVAC-CLN-1GAL': ['jug', 'EVAC'],
  'TRL-KIT-45G': ['roll', '45'],
  'PTW-CF-12': ['stack', ''],
  'PPR-LTR-5000': ['stack', 'A4'],
  'LBL-ADDR-3000': ['notes', 'ABC'],
  'PEN-GEL-BLK-12': ['pen', ''],
  'CLP-BRD-LTR-6': ['clipboard', ''],
  'FLD-CLS-LTR-50': ['folder', ''],
  'TNR-HP-26A': ['box', '26A'],
  'APT-CARD-500': ['notes', '10:30'],
  'STK-NOTE-12': ['notes', ''],
  'COF-KCUP-MED-96': ['box', 'K'],
  'TEA-ASST-100': ['box', 'TEA'],
  'CUP-HOT-12OZ-50': ['cup', ''],
  'WTR-BTL-16OZ-24': ['bottle', 'H2O'],
  'CRM-ORIG-180': ['cup', 'CR'],
  'SUG-PKT-1000': ['box', 'SUG'],
  'NPK-DIN-500': ['stack', ''],
  'DSH-SOAP-38OZ': ['spray', 'DISH'],
  'BIB-2PLY-500': ['stack', 'BIB'],
  'SEV-TIP-100': ['syringe', 'SE'],
  'GZE-2X2-200': ['stack', '2x2'],
  'CTR-ROLL-2000': ['roll', '#2'],
  'STP-PCH-3X9-200': ['pouch', ''],
  'SYR-3ML-LL-100': ['syringe', '3 mL'],
  'TBC-PAPER-18-12': ['roll', '18'],
  'ABT-TIP-3W-250': ['syringe', 'A/W'],
};

const SHAPES: Readonly<Record<Shape, (c: { ink: string; fill: string }) => string>> = {
  glove: ({ ink, fill }) =>
    `<path d="M84 188V112c0-8 12-8 12 0v-40c0-9 13-9 13 0v-8c0-9 14-9 14 0v8c0-9 13-9 13 0v40l10-18c5-8 16-3 12 6l-20 48v40z" fill="${fill}" stroke="${ink}" stroke-width="4" stroke-linejoin="round"/><rect x="82" y="184" width="64" height="14" rx="4" fill="${ink}"/>`,
  mask: ({ ink, fill }) =>
    `<path d="M62 110q58-30 116 0v34q-58 40-116 0z" fill="${fill}" stroke="${ink}" stroke-width="4"/><path d="M62 118q-26 8-14 26M178 118q26 8 14 26" fill="none" stroke="${ink}" stroke-width="4"/><path d="M74 124h92M74 136h92" stroke="#fff" stroke-width="3" opacity=".7"/>`,
  shield: ({ ink, fill }) =>
    `<rect x="70" y="58" width="100" height="16" rx="8" fill="${ink}"/><path d="M74 74h92l-6 108q-40 14-80 0z" fill="${fill}" fill-opacity=".35" stroke="${ink}" stroke-width="4"/><path d="M96 96l-8 60" stroke="#fff" stroke-width="6" stroke-linecap="round"/>`,
  gown: ({ ink, fill }) =>
    `<path d="M96 56h48l34 40-18 14-8-10v96H88v-96l-8 10-18-14z" fill="${fill}" stroke="${ink}" stroke-width="4" stroke-linejoin="round"/><path d="M88 150h64" stroke="${ink}" stroke-width="4"/>`,
  cap: ({ ink, fill }) =>
    `<path d="M56 146q0-70 64-70t64 70z" fill="${fill}" stroke="${ink}" stroke-width="4"/><path d="M52 146q68 18 136 0" fill="none" stroke="${ink}" stroke-width="8" stroke-linecap="round"/>`,
  bottle: ({ ink, fill }) =>
    `<rect x="108" y="48" width="24" height="16" rx="3" fill="${ink}"/><path d="M124 48h22v8h-14" fill="none" stroke="${ink}" stroke-width="4"/><path d="M104 64h32v14l14 14v102H90V92l14-14z" fill="${fill}" stroke="${ink}" stroke-width="4" stroke-linejoin="round"/><rect x="98" y="118" width="44" height="44" rx="6" fill="#fff"/>`,
  spray: ({ ink, fill }) =>
    `<path d="M100 52h40l14 10h-22v12h-28z" fill="${ink}"/><path d="M100 74h32v14l14 16v90H88v-90l12-16z" fill="${fill}" stroke="${ink}" stroke-width="4" stroke-linejoin="round"/><rect x="96" y="124" width="44" height="44" rx="6" fill="#fff"/>`,
  jug: ({ ink, fill }) =>
    `<rect x="104" y="44" width="28" height="18" rx="4" fill="${ink}"/><path d="M96 62h60q10 0 10 10v120H74V84z" fill="${fill}" stroke="${ink}" stroke-width="4" stroke-linejoin="round"/><path d="M134 74h18v26h-18z" fill="#fff" opacity=".6"/><rect x="86" y="124" width="68" height="46" rx="6" fill="#fff"/>`,
  canister: ({ ink, fill }) =>
    `<rect x="82" y="58" width="76" height="20" rx="8" fill="${ink}"/><rect x="86" y="76" width="68" height="118" rx="10" fill="${fill}" stroke="${ink}" stroke-width="4"/><path d="M120 58q10-18 24-12" fill="none" stroke="${ink}" stroke-width="3"/><rect x="94" y="118" width="52" height="44" rx="6" fill="#fff"/>`,
  roll: ({ ink, fill }) =>
    `<rect x="62" y="84" width="116" height="76" rx="10" fill="${fill}" stroke="${ink}" stroke-width="4"/><ellipse cx="62" cy="122" rx="18" ry="38" fill="#fff" stroke="${ink}" stroke-width="4"/><ellipse cx="62" cy="122" rx="7" ry="14" fill="${ink}"/><path d="M178 150v36h-50" fill="none" stroke="${ink}" stroke-width="4"/>`,
  stack: ({ ink, fill }) =>
    `<rect x="64" y="136" width="112" height="30" rx="4" fill="${fill}" stroke="${ink}" stroke-width="4"/><rect x="64" y="106" width="112" height="30" rx="4" fill="#fff" stroke="${ink}" stroke-width="4"/><rect x="64" y="76" width="112" height="30" rx="4" fill="${fill}" stroke="${ink}" stroke-width="4"/><rect x="64" y="166" width="112" height="26" rx="4" fill="#fff" stroke="${ink}" stroke-width="4"/>`,
  box: ({ ink, fill }) =>
    `<path d="M60 92l60-28 60 28v86l-60 24-60-24z" fill="${fill}" stroke="${ink}" stroke-width="4" stroke-linejoin="round"/><path d="M60 92l60 26 60-26M120 118v84" fill="none" stroke="${ink}" stroke-width="4"/><path d="M72 124l38 16v30l-38-16z" fill="#fff"/>`,
  pen: ({ ink, fill }) =>
    `<g transform="rotate(-35 120 120)"><rect x="110" y="40" width="20" height="130" rx="6" fill="${fill}" stroke="${ink}" stroke-width="4"/><path d="M110 170h20l-10 26z" fill="#fff" stroke="${ink}" stroke-width="4" stroke-linejoin="round"/><rect x="114" y="30" width="12" height="16" rx="3" fill="${ink}"/><path d="M132 56v50" stroke="${ink}" stroke-width="5" stroke-linecap="round"/></g>`,
  clipboard: ({ ink, fill }) =>
    `<rect x="70" y="56" width="100" height="136" rx="8" fill="${fill}" stroke="${ink}" stroke-width="4"/><rect x="82" y="76" width="76" height="104" rx="3" fill="#fff"/><rect x="98" y="48" width="44" height="20" rx="5" fill="${ink}"/><path d="M94 100h52M94 118h52M94 136h36" stroke="${ink}" stroke-width="4" stroke-linecap="round" opacity=".5"/>`,
  folder: ({ ink, fill }) =>
    `<path d="M58 80h44l10 12h70v96H58z" fill="${fill}" stroke="${ink}" stroke-width="4" stroke-linejoin="round"/><rect x="70" y="104" width="100" height="72" rx="3" fill="#fff" stroke="${ink}" stroke-width="3"/>`,
  cup: ({ ink, fill }) =>
    `<rect x="74" y="62" width="92" height="16" rx="6" fill="${ink}"/><path d="M80 78h80l-10 116H90z" fill="${fill}" stroke="${ink}" stroke-width="4" stroke-linejoin="round"/><rect x="90" y="116" width="60" height="40" rx="4" fill="#fff"/>`,
  syringe: ({ ink, fill }) =>
    `<g transform="rotate(-40 120 120)"><rect x="70" y="106" width="96" height="28" rx="4" fill="#fff" stroke="${ink}" stroke-width="4"/><rect x="74" y="110" width="52" height="20" fill="${fill}"/><path d="M166 120h32M52 106v28M52 120h18" stroke="${ink}" stroke-width="4" stroke-linecap="round"/></g>`,
  pouch: ({ ink, fill }) =>
    `<rect x="76" y="50" width="88" height="146" rx="4" fill="#fff" stroke="${ink}" stroke-width="4"/><rect x="76" y="50" width="88" height="30" fill="${fill}"/><path d="M76 80h88" stroke="${ink}" stroke-width="4"/><path d="M92 100l56 76M148 100l-56 76" stroke="${fill}" stroke-width="3" opacity=".6"/>`,
  notes: ({ ink, fill }) =>
    `<rect x="76" y="76" width="104" height="104" rx="4" fill="${fill}" stroke="${ink}" stroke-width="4"/><rect x="62" y="62" width="104" height="104" rx="4" fill="#fff" stroke="${ink}" stroke-width="4"/><path d="M78 90h72M78 108h72M78 126h48" stroke="${ink}" stroke-width="4" stroke-linecap="round" opacity=".35"/>`,
};

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function drawSeedImage(productId: string, category: string): string {
  const tint = TINTS[category];
  const picture = PICTURES[productId];
  if (!tint || !picture) throw new Error(`No picture for ${productId} (${category})`);
  const [shape, label] = picture;
  const badge = label
    ? `<rect x="150" y="176" width="${Math.max(40, label.length * 11 + 16)}" height="32" rx="16" fill="${tint.ink}"/><text x="${150 + Math.max(40, label.length * 11 + 16) / 2}" y="198" font-family="system-ui,sans-serif" font-size="16" font-weight="700" fill="#fff" text-anchor="middle">${escapeXml(label)}</text>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 240" width="240" height="240"><rect width="240" height="240" rx="24" fill="${tint.bg}"/>${SHAPES[shape](tint)}${badge}</svg>\n`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() as string)) {
  for (const product of SEED_CATALOG) {
    writeFileSync(
      new URL(`${product.product_id}.svg`, import.meta.url),
      drawSeedImage(product.product_id, product.category),
    );
  }
}
