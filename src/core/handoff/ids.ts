// Kept dependency-free so the webview bundle does not pull in the registry.
import * as z from 'zod';

export const SPECIALIST_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const SpecialistIdSchema = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
  .regex(SPECIALIST_ID_PATTERN, 'must be 1–64 characters of a–z, 0–9, "_" or "-", starting with a letter or digit (e.g. quality_reviewer)');
