/** en-US copy of the signed-in area (/webapp). */
export const WEBAPP_EN_US = {
  home: {
    signedInAs: 'Signed in as {{email}}',
    sections: 'Sections',
    signOut: 'Sign out',
    deleteMyData: 'Delete my data',
    deleteConfirm: 'Delete your account, reports and profile? Purchases stay on record; cancel subscriptions first.',
    deleteYes: 'Delete everything',
    deleteNo: 'Keep my data',
  },
  profile: { name: 'Name', birthDate: 'Date of birth', birthTime: 'Time of birth', update: 'Update', saved: 'Profile updated' },
  subscriptions: {
    none: 'No subscriptions',
    status: 'Status',
    nextCharge: 'Next charge',
    noNextCharge: 'none',
    cancel: 'Cancel subscription',
    confirmTitle: 'Cancel this subscription? Access stays until the paid period ends.',
    confirm: 'Yes, cancel',
    keep: 'Keep it',
  },
} as const;
