import type { ProductRecordInput } from './product';

/**
 * The catalog a new environment starts with (`npm start`, a fresh sandbox): supplies a
 * dental or medical office reorders, eight per category. Written in the import file's
 * form (snake_case, dollar prices), so it goes through the same validation as any
 * operator's import; prices are plausible list prices, not quotes. Each `image` is a path
 * relative to lib/local-runtime/ (the pictures drawn for this project, seed-images/).
 */
export const SEED_CATALOG: readonly ProductRecordInput[] = [
  // Gloves & PPE
  { product_id: 'GLV-NIT-S-100', name: 'Nitrile Exam Gloves, Powder-Free, Small', description: 'Blue nitrile examination gloves, 3.5 mil, textured fingertips, latex-free. Ambidextrous.', category: 'Gloves & PPE', price: 12.49, unit: 'box of 100', active: true, image: 'seed-images/GLV-NIT-S-100.svg' },
  { product_id: 'GLV-NIT-M-100', name: 'Nitrile Exam Gloves, Powder-Free, Medium', description: 'Blue nitrile examination gloves, 3.5 mil, textured fingertips, latex-free. Ambidextrous.', category: 'Gloves & PPE', price: 12.49, unit: 'box of 100', active: true, image: 'seed-images/GLV-NIT-M-100.svg' },
  { product_id: 'GLV-NIT-L-100', name: 'Nitrile Exam Gloves, Powder-Free, Large', description: 'Blue nitrile examination gloves, 3.5 mil, textured fingertips, latex-free. Ambidextrous.', category: 'Gloves & PPE', price: 12.49, unit: 'box of 100', active: true, image: 'seed-images/GLV-NIT-L-100.svg' },
  { product_id: 'MSK-L3-50', name: 'ASTM Level 3 Procedure Masks, Ear Loop', description: 'Three-ply fluid-resistant masks with a pleated design and a soft ear loop. Bacterial filtration above 98%.', category: 'Gloves & PPE', price: 14.95, unit: 'box of 50', active: true, image: 'seed-images/MSK-L3-50.svg' },
  { product_id: 'RSP-N95-20', name: 'N95 Respirators, NIOSH Approved', description: 'Cup-style N95 respirators with an adjustable nose clip and two head straps.', category: 'Gloves & PPE', price: 24.99, unit: 'box of 20', active: true, image: 'seed-images/RSP-N95-20.svg' },
  { product_id: 'FSH-ANTIFOG-10', name: 'Full-Length Face Shields, Anti-Fog', description: 'Clear anti-fog face shields with a foam brow cushion and an elastic band. Disposable.', category: 'Gloves & PPE', price: 11.5, unit: 'pack of 10', active: true, image: 'seed-images/FSH-ANTIFOG-10.svg' },
  { product_id: 'GWN-ISO-L2-10', name: 'Isolation Gowns, AAMI Level 2, Universal', description: 'Fluid-resistant polypropylene gowns with knit cuffs and waist ties. One size fits most.', category: 'Gloves & PPE', price: 18.75, unit: 'pack of 10', active: true, image: 'seed-images/GWN-ISO-L2-10.svg' },
  { product_id: 'BNF-CAP-100', name: 'Bouffant Caps, 21 in.', description: 'Lightweight breathable bouffant caps with an elastic band. Blue.', category: 'Gloves & PPE', price: 7.99, unit: 'bag of 100', active: true, image: 'seed-images/BNF-CAP-100.svg' },

  // Cleaning & Disinfection
  { product_id: 'WIP-CAVI-160', name: 'Surface Disinfectant Wipes, Large Canister', description: 'EPA-registered disinfectant towelettes for hard, non-porous surfaces. Three-minute contact time.', category: 'Cleaning & Disinfection', price: 9.89, unit: 'canister of 160', active: true, image: 'seed-images/WIP-CAVI-160.svg' },
  { product_id: 'SPR-DIS-24OZ', name: 'Disinfectant Spray, Hospital Grade', description: 'Ready-to-use surface disinfectant spray, bactericidal, virucidal and tuberculocidal.', category: 'Cleaning & Disinfection', price: 8.45, unit: '24 oz bottle', active: true, image: 'seed-images/SPR-DIS-24OZ.svg' },
  { product_id: 'HSN-GEL-1L', name: 'Hand Sanitizer Gel, 70% Alcohol', description: 'Fragrance-free hand sanitizer gel with moisturizers, in a pump bottle.', category: 'Cleaning & Disinfection', price: 11.25, unit: '1 L pump bottle', active: true, image: 'seed-images/HSN-GEL-1L.svg' },
  { product_id: 'SOAP-FOAM-1L', name: 'Antimicrobial Foaming Hand Soap Refill', description: 'Mild foaming hand soap for clinical handwashing. Fits standard 1 L dispensers.', category: 'Cleaning & Disinfection', price: 13.6, unit: '1 L refill', active: true, image: 'seed-images/SOAP-FOAM-1L.svg' },
  { product_id: 'ENZ-INST-1GAL', name: 'Enzymatic Instrument Cleaner', description: 'Dual-enzyme pre-soak and ultrasonic cleaner for instruments before sterilization. Concentrate.', category: 'Cleaning & Disinfection', price: 36.9, unit: '1 gallon', active: true, image: 'seed-images/ENZ-INST-1GAL.svg' },
  { product_id: 'EVAC-CLN-1GAL', name: 'Evacuation System Cleaner', description: 'Non-foaming cleaner for dental suction lines and evacuation systems. Concentrate.', category: 'Cleaning & Disinfection', price: 29.99, unit: '1 gallon', active: true, image: 'seed-images/EVAC-CLN-1GAL.svg' },
  { product_id: 'TRL-KIT-45G', name: 'Trash Liners, 45 Gallon', description: 'Clear high-density trash liners, 16 micron, for large office bins.', category: 'Cleaning & Disinfection', price: 24.5, unit: 'case of 250', active: true, image: 'seed-images/TRL-KIT-45G.svg' },
  { product_id: 'PTW-CF-12', name: 'Paper Towels, C-Fold', description: 'White C-fold paper towels for wall dispensers. 150 towels per pack.', category: 'Cleaning & Disinfection', price: 32.4, unit: 'case of 16 packs', active: true, image: 'seed-images/PTW-CF-12.svg' },

  // Office Supplies
  { product_id: 'PPR-LTR-5000', name: 'Copy Paper, Letter, 20 lb', description: '8.5 x 11 in. multipurpose copy paper, 92 bright, acid-free. Ten reams of 500 sheets.', category: 'Office Supplies', price: 49.99, unit: 'case of 10 reams', active: true, image: 'seed-images/PPR-LTR-5000.svg' },
  { product_id: 'LBL-ADDR-3000', name: 'Address Labels, 1 x 2-5/8 in.', description: 'White laser and inkjet labels, 30 per sheet, for patient mailings and charts.', category: 'Office Supplies', price: 27.95, unit: 'box of 3000', active: true, image: 'seed-images/LBL-ADDR-3000.svg' },
  { product_id: 'PEN-GEL-BLK-12', name: 'Retractable Gel Pens, Black', description: 'Medium-point 0.7 mm retractable gel pens with a comfort grip.', category: 'Office Supplies', price: 10.99, unit: 'pack of 12', active: true, image: 'seed-images/PEN-GEL-BLK-12.svg' },
  { product_id: 'CLP-BRD-LTR-6', name: 'Clipboards, Letter Size', description: 'Hardboard clipboards with a low-profile clip, for intake forms.', category: 'Office Supplies', price: 15.49, unit: 'pack of 6', active: true, image: 'seed-images/CLP-BRD-LTR-6.svg' },
  { product_id: 'FLD-CLS-LTR-50', name: 'Classification Folders, 2 Dividers', description: 'Pressboard folders with fasteners and two dividers, letter size, for patient records.', category: 'Office Supplies', price: 78.0, unit: 'box of 50', active: true, image: 'seed-images/FLD-CLS-LTR-50.svg' },
  { product_id: 'TNR-HP-26A', name: 'Toner Cartridge, Black, 26A Compatible', description: 'High-yield black toner for LaserJet Pro M402 and M426 series, about 3100 pages.', category: 'Office Supplies', price: 64.99, unit: 'each', active: true, image: 'seed-images/TNR-HP-26A.svg' },
  { product_id: 'APT-CARD-500', name: 'Appointment Reminder Cards', description: 'Blank appointment cards, 3.5 x 2 in., with a write-on back.', category: 'Office Supplies', price: 21.5, unit: 'box of 500', active: true, image: 'seed-images/APT-CARD-500.svg' },
  { product_id: 'STK-NOTE-12', name: 'Sticky Notes, 3 x 3 in.', description: 'Yellow self-stick notes, 100 sheets per pad.', category: 'Office Supplies', price: 9.49, unit: 'pack of 12 pads', active: true, image: 'seed-images/STK-NOTE-12.svg' },

  // Breakroom
  { product_id: 'COF-KCUP-MED-96', name: 'Coffee Pods, Medium Roast', description: 'Single-serve medium roast coffee pods compatible with Keurig brewers.', category: 'Breakroom', price: 45.99, unit: 'box of 96', active: true, image: 'seed-images/COF-KCUP-MED-96.svg' },
  { product_id: 'TEA-ASST-100', name: 'Assorted Tea Bags', description: 'Individually wrapped black, green and herbal tea bags in a display box.', category: 'Breakroom', price: 16.25, unit: 'box of 100', active: true, image: 'seed-images/TEA-ASST-100.svg' },
  { product_id: 'CUP-HOT-12OZ-50', name: 'Paper Hot Cups with Lids, 12 oz', description: 'Insulated paper cups with matching lids for coffee and tea.', category: 'Breakroom', price: 12.75, unit: 'pack of 50', active: true, image: 'seed-images/CUP-HOT-12OZ-50.svg' },
  { product_id: 'WTR-BTL-16OZ-24', name: 'Bottled Spring Water, 16.9 oz', description: 'Natural spring water for the waiting room and staff room.', category: 'Breakroom', price: 6.99, unit: 'case of 24', active: true, image: 'seed-images/WTR-BTL-16OZ-24.svg' },
  { product_id: 'CRM-ORIG-180', name: 'Coffee Creamer Singles, Original', description: 'Shelf-stable liquid creamer singles, no refrigeration needed.', category: 'Breakroom', price: 13.49, unit: 'box of 180', active: true, image: 'seed-images/CRM-ORIG-180.svg' },
  { product_id: 'SUG-PKT-1000', name: 'Sugar Packets', description: 'Pure cane sugar packets for coffee stations.', category: 'Breakroom', price: 14.25, unit: 'box of 1000', active: true, image: 'seed-images/SUG-PKT-1000.svg' },
  { product_id: 'NPK-DIN-500', name: 'Paper Napkins, 1-Ply', description: 'White lunch napkins, 12 x 12 in.', category: 'Breakroom', price: 8.5, unit: 'pack of 500', active: true, image: 'seed-images/NPK-DIN-500.svg' },
  { product_id: 'DSH-SOAP-38OZ', name: 'Dish Soap, Original Scent', description: 'Concentrated liquid dish soap for the breakroom sink.', category: 'Breakroom', price: 5.79, unit: '38 oz bottle', active: true, image: 'seed-images/DSH-SOAP-38OZ.svg' },

  // Clinical Disposables
  { product_id: 'BIB-2PLY-500', name: 'Patient Bibs, 2-Ply Tissue + Poly', description: 'Fluid-resistant patient bibs with a poly backing, 13 x 18 in. Assorted colors.', category: 'Clinical Disposables', price: 27.99, unit: 'case of 500', active: true, image: 'seed-images/BIB-2PLY-500.svg' },
  { product_id: 'SEV-TIP-100', name: 'Saliva Ejectors, Clear with White Tip', description: 'Flexible saliva ejectors that hold their shape, with a soft non-removable tip.', category: 'Clinical Disposables', price: 6.95, unit: 'bag of 100', active: true, image: 'seed-images/SEV-TIP-100.svg' },
  { product_id: 'GZE-2X2-200', name: 'Gauze Sponges, 2 x 2 in., 8-Ply, Non-Sterile', description: 'Woven cotton gauze sponges for general dental and medical use.', category: 'Clinical Disposables', price: 4.49, unit: 'sleeve of 200', active: true, image: 'seed-images/GZE-2X2-200.svg' },
  { product_id: 'CTR-ROLL-2000', name: 'Cotton Rolls, No. 2 Medium', description: 'Non-sterile absorbent cotton rolls, 1.5 in. long.', category: 'Clinical Disposables', price: 9.25, unit: 'box of 2000', active: true, image: 'seed-images/CTR-ROLL-2000.svg' },
  { product_id: 'STP-PCH-3X9-200', name: 'Self-Seal Sterilization Pouches, 3.5 x 9 in.', description: 'Autoclave pouches with internal and external process indicators.', category: 'Clinical Disposables', price: 11.99, unit: 'box of 200', active: true, image: 'seed-images/STP-PCH-3X9-200.svg' },
  { product_id: 'SYR-3ML-LL-100', name: 'Syringes, 3 mL, Luer Lock', description: 'Sterile single-use syringes without needle, latex-free.', category: 'Clinical Disposables', price: 17.4, unit: 'box of 100', active: true, image: 'seed-images/SYR-3ML-LL-100.svg' },
  { product_id: 'TBC-PAPER-18-12', name: 'Exam Table Paper, Smooth, 18 in.', description: 'Smooth white table paper rolls, 225 ft each.', category: 'Clinical Disposables', price: 42.6, unit: 'case of 12 rolls', active: true, image: 'seed-images/TBC-PAPER-18-12.svg' },
  { product_id: 'ABT-TIP-3W-250', name: 'Air/Water Syringe Tips, Disposable', description: 'Clear plastic tips with a metal core for air/water syringes. Fits most units.', category: 'Clinical Disposables', price: 19.95, unit: 'bag of 250', active: false, image: 'seed-images/ABT-TIP-3W-250.svg' },
];
