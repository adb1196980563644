import { profileResponseSchema, type Profile, type ProfileResponse } from '@roots/contracts/account';
import { sendParsed } from '../../../lib/api-client';

/** `PUT /api/account/profile`: the signed-in user's name and birth details; answers the profile as saved. */
export function saveProfile(profile: Profile): Promise<ProfileResponse> {
  return sendParsed('PUT', '/api/account/profile', profile, profileResponseSchema);
}
