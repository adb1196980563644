import { z } from 'zod';
import { MESSAGES } from './messages';

/** Longest email the forms accept (RFC 5321 allows 254; we keep screens honest with 100). */
export const EMAIL_MAX_LENGTH = 100;

/**
 * The email field of the funnel and cancel forms, with the messages of product-spec §5:
 * 'This field is required!', 'You have reached the maximum length', 'Please enter a valid email'.
 */
export const emailFieldSchema = z
  .string()
  .trim()
  .min(1, MESSAGES.fieldRequired)
  .max(EMAIL_MAX_LENGTH, MESSAGES.maxLength)
  .regex(z.regexes.email, MESSAGES.invalidEmail);

export const emailFormSchema = z.object({ email: emailFieldSchema });
export type EmailForm = z.infer<typeof emailFormSchema>;
