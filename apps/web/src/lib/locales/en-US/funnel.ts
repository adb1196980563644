/** en-US copy of the funnel screens: onboarding, offers and the cancel pages. */
export const FUNNEL_SCREENS_EN_US = {
  offers: {
    intro: 'Your plan is active. These one-time packs are charged once to the card you just used, in one click.',
    oneTime: 'one-time payment',
    buy: 'Add for {{price}}',
    bought: 'Added to your account.',
    continue: 'Continue to my account',
    none: 'Your plan is active, and you already have every pack we offer here.',
    sureTitle: 'Are you sure?',
    // Not 'only shown once': a reload shows the page again (issue 24). Only what is true of it.
    sureText: 'These packs are charged once, in one click, to the card you just used. You can add them now, before you go to your account.',
    sureStay: 'Stay and see the offers',
    sureLeave: 'Skip the offers',
    lastChance: 'A last, lower price',
  },
  unknownPlan: {
    // The way out of product-spec §4's full-screen message (issue 35).
    toStart: 'Go to the start',
  },
  cancel: {
    explain: 'Enter the email you paid with. We send a 6-digit code to confirm it is you; no sign-in needed.',
    sendCode: 'Send code',
    tryAnother: 'Try another email',
    codeSent: 'We sent a 6-digit code to {{email}}. It also works as a one-click link in the email.',
    codeLabel: 'Code from the email',
    confirm: 'Cancel my subscription',
    linkTitle: 'Cancel your subscription?',
    linkText:
      'You opened the cancel link from our email. Confirm, and you will not be charged again; your access lasts until the end of the period you paid for.',
    keep: 'Keep my subscription',
    kept: 'Nothing changed: your subscription continues.',
    linkPlan: '{{plan}}: access until {{date}}.',
    guarantee: 'Money-back guarantee: you can get your {{amount}} back until {{date}}.',
    confirmAndRefund: 'Cancel and refund {{amount}}',
    refunded: 'We refunded {{amount}} to your card. It usually shows on your statement within 5–10 business days.',
  },
  onboarding: {
    next: 'Next',
    back: 'Back',
    continue: 'Continue',
    slideOf: 'Slide {{current}} of {{total}}',
    slides: [
      {
        title: 'Discover the heritage your face resembles',
        text: 'One selfie, a few seconds, and an estimate of which population groups your features look most like.',
      },
      {
        title: 'Built on facial structure',
        text: 'We measure regions such as eyes, nose, lips and jaw, and compare them with faces from seven population groups. You see how sure the estimate is.',
      },
      {
        title: 'Private by design',
        text: 'Your photo is processed and not stored. We do not collect biometric data. This is an estimate of visual resemblance, not a genetic test.',
      },
    ],
    quiz: {
      progress: 'Question {{current}} of {{total}}',
      progressLabel: 'Quiz progress',
      questions: {
        motivation: {
          title: 'What brings you to {{product}}?',
          options: {
            curiosity: 'Pure curiosity',
            'family-history': 'My family history',
            gift: 'A gift for someone',
            travel: 'Ideas for travel',
          },
        },
        knowledge: {
          title: "How much do you know about your family's origins?",
          options: { 'a-lot': 'A lot', some: 'Some', 'a-little': 'A little', nothing: 'Almost nothing' },
        },
        lookalike: {
          title: 'Have people told you that you look like you come from somewhere else?',
          options: { often: 'Often', sometimes: 'Sometimes', never: 'Never' },
        },
        dnaTest: {
          title: 'Have you ever taken a DNA ancestry test?',
          options: { yes: 'Yes', no: 'No', planning: 'I am thinking about it' },
        },
        grandparents: {
          title: 'Where were your grandparents born?',
          options: { 'same-country': 'All in one country', 'different-countries': 'In different countries', 'not-sure': "I'm not sure" },
        },
        languages: {
          title: 'How many languages did your family speak when you grew up?',
          options: { one: 'One', two: 'Two', 'three-or-more': 'Three or more' },
        },
        familyStories: {
          title: 'Does your family tell stories about where it came from?',
          options: { many: 'Many', 'a-few': 'A few', none: 'None that I know' },
        },
        familyTree: {
          title: 'Have you ever drawn up a family tree?',
          options: { complete: 'Yes, a detailed one', started: 'I started one', never: 'Never' },
        },
        traditions: {
          title: "Do you keep traditions from your family's heritage?",
          options: { many: 'Many', some: 'Some', none: 'None' },
        },
        cooking: {
          title: 'How often do you cook dishes your family brought with them?',
          options: { often: 'Often', sometimes: 'Sometimes', rarely: 'Rarely' },
        },
        visited: {
          title: 'Have you visited a place your family comes from?',
          options: { yes: 'Yes', 'want-to': 'Not yet, but I want to', no: 'No' },
        },
        interest: {
          title: 'Which part of your result interests you most?',
          options: {
            breakdown: 'The resemblance breakdown',
            'facial-traits': 'My facial traits',
            'cultural-insights': 'Cultural insights',
            horoscope: 'The daily horoscope',
          },
        },
        noticedFeature: {
          title: 'Which of your features do people notice first?',
          options: { eyes: 'My eyes', nose: 'My nose', lips: 'My lips', 'face-shape': 'My face shape' },
        },
        share: {
          title: 'Who would you share your result with?',
          options: { family: 'My family', friends: 'My friends', partner: 'My partner', nobody: 'Nobody, it is just for me' },
        },
        surprise: {
          title: 'How would you feel about a surprising result?',
          options: { excited: 'Excited', curious: 'Curious to learn why', skeptical: 'Skeptical' },
        },
        horoscope: {
          title: 'Do you read your horoscope?',
          options: { daily: 'Every day', sometimes: 'Sometimes', never: 'Never' },
        },
        energy: {
          title: 'Do you notice ups and downs in your energy during the month?',
          options: { yes: 'Yes', sometimes: 'Sometimes', no: 'No' },
        },
        population: {
          title: 'Are you curious how common your features are in different regions?',
          options: { very: 'Very', 'a-little': 'A little', 'not-really': 'Not really' },
        },
        insightsFrequency: {
          title: 'How often would you like new insights?',
          options: { daily: 'Every day', weekly: 'Every week', 'on-demand': 'Only when I ask' },
        },
        heardFrom: {
          title: 'How did you hear about {{product}}?',
          options: { 'social-media': 'Social media', friend: 'A friend', search: 'A search engine', other: 'Somewhere else' },
        },
      },
    },
    consentTitle: 'Before we take your photo',
    consentAnalysis:
      'I agree that {{product}} analyses my face photo to estimate its visual resemblance to population groups. I understand this is not a genetic or ancestry test, and that the photo is processed and not stored.',
    consentAge: 'I confirm that I am 18 years old or older.',
    consentHint: 'Both boxes are needed before the camera opens.',
    cameraTipTitle: 'Take a photo',
    cameraTips: [
      'Face the camera, with your whole face inside the oval',
      'Take off glasses and anything covering your face',
      'Only one person in the photo',
    ],
    openCamera: 'Open the camera',
    uploadInstead: 'Upload a photo instead',
    selfieTitle: 'Take a selfie',
    capture: 'Take photo',
    retake: 'Retake',
    usePhoto: 'Use this photo',
    cameraUnavailable: "We couldn't open your camera. You can upload a photo instead.",
    choosePhoto: 'Choose a photo',
    photoPreviewAlt: 'Your photo',
    photoUnreadable: "We couldn't read that file. Please choose a JPEG, PNG or WebP photo.",
    processingTitle: 'Analysing your photo',
    processingRetake: 'Retake photo',
    chooseFaceTitle: 'Which one is you?',
    chooseFaceHint: 'We found {{count}} faces in your photo. Tap yours, and we will analyse that face only.',
    chooseFaceLabel: 'Face {{index}} of {{count}}',
    chooseFacePhotoAlt: 'Your photo, with each face we found outlined',
    emailTitle: 'Where should we send your results?',
    emailLabel: 'Email',
    emailPlaceholder: 'you@example.com',
    emailSubmit: 'See my results',
    emailPrivacy: 'We use your email for your results and receipts only.',
  },
} as const;
