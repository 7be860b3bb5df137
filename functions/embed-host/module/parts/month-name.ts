import { format, parse } from 'date-fns';
import type { SpendMonth } from '../../../domain/spending/monthly-spend';

/** A `YYYY-MM` as people read it: "November 2026" (long) or "Nov 2026" (short). */
export const monthName = (month: SpendMonth, style: 'long' | 'short'): string =>
  format(parse(month, 'yyyy-MM', new Date(0)), style === 'long' ? 'MMMM yyyy' : 'MMM yyyy');
