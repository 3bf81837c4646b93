"""Writes faq.md: the help-center FAQ of a fictional kitchen-appliance shop ("Hearthline").

Deterministic (seeded). Hand-written core text per section, plus realistic reference
material (tables, lists) and a pool of support boilerplate shared across sections, so the
vocabulary overlaps the way a real help center's does. Run: python3 gen_faq.py
"""
import random

rng = random.Random(16)

BOILER = [
    "If the steps above do not solve it, reply to your order confirmation email and a member of the care team will pick it up.",
    "Have your order number ready; it starts with HL- and is printed on the packing slip.",
    "Our care team works Monday to Saturday, 8:00 to 20:00 Central European Time, and answers most messages within one business day.",
    "Screenshots or a short video of the problem usually help us resolve things faster.",
    "Members of Hearthline Plus get priority in the queue and a direct chat line.",
    "These terms apply to purchases made on hearthline.example and in the Hearthline app; marketplace sellers may have their own rules.",
    "We review this page every quarter, and the date at the bottom shows the last change.",
    "Prices on this page include VAT where it applies and are shown in euros unless stated otherwise.",
    "Some details differ for business customers; see the section for companies and resellers.",
    "You can follow every step of this in your account under Orders, where each change is logged with a date.",
    "Accessibility note: every form mentioned here also works with a screen reader and keyboard only.",
    "We never ask for your password or full card number by phone or email.",
    "Tip: the search box at the top of the help center also looks inside manuals and recipe booklets.",
    "In rare cases a courier partner may need an extra day during national holidays.",
    "Customers in the outermost regions of the EU (such as the Canary Islands or Madeira) may see different timelines.",
    "Our products are designed in Lyon and assembled in partner factories in Portugal and Poland.",
    "All emails from us come from an address ending in @hearthline.example; anything else is not from us.",
    "For safety, unplug the appliance before cleaning or inspecting it.",
    "Keep the original box for the first month if you can: it makes any exchange easier.",
    "Community answers in the Hearthline forum are moderated but not official advice.",
]

COUNTRIES = ["Austria", "Belgium", "Bulgaria", "Croatia", "Cyprus", "Czechia", "Denmark", "Estonia",
             "Finland", "France", "Germany", "Greece", "Hungary", "Ireland", "Italy", "Latvia",
             "Lithuania", "Luxembourg", "Malta", "Netherlands", "Poland", "Portugal", "Romania",
             "Slovakia", "Slovenia", "Spain", "Sweden", "Norway", "Switzerland", "United Kingdom"]

MODELS = [("Aroma 3", "drip coffee maker"), ("Aroma 5", "drip coffee maker"), ("Crema Pro", "espresso machine"),
          ("Crema Mini", "espresso machine"), ("Boil 1.7", "kettle"), ("Boil Glass", "kettle"),
          ("Crisp XL", "air fryer"), ("Crisp 4", "air fryer"), ("Blend 900", "blender"),
          ("Blend Go", "personal blender"), ("Knead 6", "stand mixer"), ("Toast Duo", "toaster"),
          ("Toast Quad", "toaster"), ("Steam 2", "steam oven"), ("Chill 40", "wine cooler")]

S = []  # (heading, [paragraphs])

def sec(h, *paras):
    S.append((h, list(paras)))

sec("About Hearthline",
    "Hearthline designs and sells small kitchen appliances: coffee makers, kettles, air fryers, blenders, mixers, toasters and steam ovens. We sell directly to customers in the European Union, Norway, Switzerland and the United Kingdom.",
    "This help center collects the questions we hear most often. Each section stands on its own, so you can jump straight to the topic you need.")

sec("Creating an account",
    "You can order as a guest, but an account lets you track deliveries, download invoices and register your appliances for warranty. Sign up with an email address or with Apple or Google sign-in.",
    "After signing up we send a confirmation link that stays valid for 48 hours. If it expires, request a new one from the login page with the link 'Resend confirmation'.",
    "One account can hold up to five delivery addresses and three saved payment methods.")

sec("Resetting your password",
    "Use 'Forgot password' on the login page and enter the email address of your account. The reset email arrives within a few minutes; the link in it works once and expires after 30 minutes.",
    "Passwords need at least 12 characters. We check new passwords against lists of leaked passwords and reject any that appear there.",
    "If you signed up with Apple or Google, there is no Hearthline password to reset: sign in with the same provider again.")

sec("Two-step verification",
    "Turn on two-step verification under Account > Security. We support authenticator apps (TOTP) and passkeys; text-message codes were retired in March 2024 because of SIM-swap fraud.",
    "When you enable it we show ten single-use recovery codes. Store them somewhere safe: each code works once, and they are the only way back in if you lose your phone.",
    "Lost both your phone and your recovery codes? Our identity team can restore access after checking a photo ID, which takes up to five working days.")

sec("Placing an order",
    "Add products to your basket, choose a delivery option and pay. You receive an order confirmation email within ten minutes; if it does not arrive, check your spam folder before ordering again, because duplicate orders are charged separately.",
    "You can change the delivery address or cancel the order for free until it enters the 'Packing' status, usually about two hours after payment.")

sec("Payment methods",
    "We accept Visa, Mastercard, American Express, PayPal, Apple Pay, Google Pay, iDEAL in the Netherlands, Bancontact in Belgium, BLIK in Poland and bank transfer.",
    "Card payments are authenticated with 3-D Secure, so your bank may ask you to confirm in its app. The amount is reserved at checkout and captured when the parcel leaves the warehouse.",
    "Bank transfer orders are held for seven days; if the money has not arrived by then the order is cancelled automatically and nothing is charged.")

sec("Paying in instalments",
    "For orders above 150 euros you can split the payment into three or four interest-free instalments through our partner Klarna. Approval is decided by Klarna in seconds and does not affect the price.",
    "Instalment plans are available in Germany, Austria, the Netherlands, Finland, Sweden and Spain. Late instalment fees are set by Klarna, not by us.")

sec("Discount codes and gift cards",
    "Enter a discount code in the basket, before payment. Only one code applies per order, and codes cannot be combined with outlet prices or bundle offers.",
    "Gift cards come in values from 20 to 500 euros and stay valid for three years from the date of purchase. You can use several gift cards on one order, and pay any rest with another method.",
    "A gift card that was paid for cannot be exchanged for cash, except where the law requires it.")

sec("Invoices and VAT",
    "Invoices are generated when the parcel ships and appear in your account under Orders. Business customers can add a VAT identification number at checkout; we validate it against the EU VIES register and, if valid, apply the reverse-charge rule for cross-border orders.",
    "Need a corrected invoice, for example with a different company name? Request it within 60 days of delivery; after that our accounting rules only allow credit notes.")

sec("Delivery times",
    "Orders paid before 14:00 on a working day leave our warehouse in Zaragoza the same day. Standard delivery then takes 2 to 4 working days in most of the EU and 4 to 7 working days to Norway, Switzerland and the United Kingdom.",
    "Large items such as the Steam 2 oven and the Chill 40 wine cooler travel with a freight partner and are delivered by appointment; the freight partner calls you to agree a two-hour slot.")
rows = "\n".join(f"| {c} | {rng.choice(['DHL', 'GLS', 'DPD', 'PostNL', 'Colissimo', 'InPost'])} | {rng.randint(2, 4)}-{rng.randint(5, 7)} days | {rng.choice(['4.90', '5.90', '6.50', '7.90', '9.90'])} EUR |" for c in COUNTRIES)
sec("Shipping costs by country",
    "Standard shipping is free for orders above 60 euros everywhere we deliver. Below that, the cost depends on the destination and the courier we use there:",
    "| Country | Courier | Standard | Cost below 60 EUR |\n|---|---|---|---|\n" + rows,
    "Express delivery (next working day where available) costs a flat 14.90 euros and is offered for parcels under 20 kg.")

sec("Tracking a parcel",
    "As soon as your parcel leaves the warehouse we email a tracking link. The courier's page can take up to 24 hours to show the first scan.",
    "Tracking stuck on 'label created' for more than three working days usually means the courier has not collected the parcel yet; tell us and we will chase the warehouse.")

sec("Missing or late parcels",
    "If the tracking says delivered but you cannot find the parcel, check with neighbours and the courier's pick-up point first. Then report it to us within 14 days; we open an investigation with the courier, which takes up to ten working days.",
    "When the courier confirms the loss, we send a replacement at no cost or refund the order, as you prefer.")

sec("Damaged on arrival",
    "If the box or the appliance arrives damaged, take photos of the outer box, the packaging and the damage before you throw anything away. Report it within 7 days of delivery through Orders > Report a problem.",
    "For damaged deliveries we cover the return postage and ship a replacement as soon as the courier has collected the damaged item; you do not have to wait for it to reach our warehouse.",
    "Please do not use an appliance with a cracked housing or a damaged cable.")

sec("Returning an item",
    "You can return any product within 30 days of delivery, for any reason, as long as it is complete and in a condition that allows resale. Used coffee machines must be descaled and rinsed before return.",
    "Start a return in your account under Orders > Return. We email a prepaid label for the courier in your country; the cost of 5.95 euros is deducted from the refund unless the item is faulty or we made a mistake.",
    "Items from the outlet and opened consumables (filters, descaler, cleaning tablets) cannot be returned.")

sec("Refund timelines",
    "Once the warehouse has received and checked your return, we issue the refund within 3 working days. The money goes back to the method you paid with: card refunds then take another 5 to 10 banking days to show on your statement, PayPal refunds usually appear within 24 hours.",
    "Orders paid with gift cards are refunded as a new gift card. Klarna instalment orders are refunded to Klarna, which adjusts or cancels the remaining instalments.")

sec("Exchanging for another colour or model",
    "We do not swap items directly. Return the item you have and place a new order for the one you want; to make sure it is not sold out meanwhile, order the new one first.",
    "Price difference between models is handled automatically because the return and the new order are separate.")

sec("Warranty coverage",
    "Every Hearthline appliance has a two-year legal guarantee plus our own Hearthline warranty, which extends the total to three years for appliances registered within 60 days of purchase.",
    "The warranty covers faults in materials and workmanship. It does not cover limescale damage, broken glass jugs, wear parts such as seals and brushes, or damage from use with the wrong voltage.",
    "Register an appliance in your account under My appliances, using the serial number on the rating plate underneath.")

sec("Making a warranty claim",
    "Open a claim from My appliances > Report a fault. Describe what happens, add a photo of the rating plate, and tell us which troubleshooting steps you tried.",
    "For most small appliances we send a replacement straight away and collect the faulty one. Espresso machines and steam ovens go to our repair centre in Porto first; the repair turnaround is usually 10 working days door to door.",
    "Bought from another shop? The warranty still applies, but we need a copy of the receipt.")

sec("Spare parts",
    "Glass jugs, filter holders, seals, baskets, blades and lids can be ordered as spare parts in the shop under Parts. We keep spare parts for every model for at least seven years after it leaves the range.",
    "Not sure which part fits? The part number is in the exploded drawing at the back of the manual.")
parts = "\n".join(f"- {m} ({k}): " + ", ".join(rng.sample(["glass jug", "lid", "seal kit", "filter holder", "drip tray", "basket", "blade unit", "power base", "water tank", "steam wand tip", "crumb tray", "door gasket"], 4)) for m, k in MODELS)
sec("Spare parts by model", "Parts currently in stock:", parts)

sec("Descaling your coffee maker",
    "Hard water leaves limescale that slows the pump and changes the taste. The Aroma and Crema machines light the descale symbol after a set number of brews, depending on the water hardness you chose during setup.",
    "Use Hearthline descaler or a citric-acid based product. Never use vinegar: it attacks the rubber seals and voids the warranty for the pump.",
    "```text\n1. Empty the drip tray and remove the filter.\n2. Fill the tank with 500 ml water and one sachet of descaler.\n3. Hold the power and 2-cup buttons for 5 seconds until the symbol blinks.\n4. Let the cycle run (about 25 minutes), then rinse twice with clean water.\n```")

sec("Water hardness settings",
    "During setup you choose the water hardness from 1 (soft) to 4 (very hard) with the test strip in the box. On level 4 the descale reminder appears after roughly 40 brews; on level 1 after about 200.",
    "Using a water filter cartridge lets you choose one level softer than the strip shows.")

sec("Espresso tastes sour or bitter",
    "Sour espresso usually means under-extraction: grind finer, use a little more coffee, or let the machine heat for longer. Bitter or burnt taste means over-extraction: grind coarser or shorten the shot.",
    "A good starting point on the Crema Pro is 18 grams in, 36 grams out, in 25 to 30 seconds. Beans roasted more than six weeks ago rarely make good espresso.")

sec("The kettle switches off before boiling",
    "The Boil kettles switch off early when limescale covers the temperature sensor at the base. Descale the kettle, and check that the lid is fully closed, because an open lid lets steam reach the sensor too soon.",
    "At altitudes above 1,500 metres water boils below 100 degrees; set the kettle to the 'high altitude' mode by holding the 100 button for three seconds.")

sec("Air fryer smells or smokes",
    "A light plastic smell during the first two or three uses is normal and fades. Run the empty fryer at 200 degrees for ten minutes with the window open before first use.",
    "White smoke during cooking comes from fat dripping onto the hot base; add a spoon of water to the drawer when cooking fatty food. Black smoke means food residue is burning: stop the fryer, let it cool, and clean the heating element.")

sec("Blender jar leaking",
    "A leak at the bottom of the jar almost always means the blade unit is not screwed on tight or its seal is missing or twisted. Replace the seal kit every year if you blend daily.",
    "Do not fill the jar above the MAX line with hot liquids, and always start hot soups on the lowest speed.")

sec("Stand mixer making noise",
    "A clicking noise at high speed with heavy dough is the overload clutch protecting the gearbox; reduce the speed to 2 for bread dough.",
    "A grinding or rattling sound at every speed is not normal; stop using the mixer and open a warranty claim.")

sec("Toaster is uneven",
    "Uneven browning is normal for thick or uneven bread. If one slot is always lighter, empty the crumb tray and check that nothing is stuck on the heating wires (unplugged, with a soft brush, never a knife).",
    "The Toast Quad controls the left and right pair of slots separately.")

sec("Steam oven error codes",
    "The Steam 2 shows a code when it stops a program. Most can be cleared by the user:",
    "| Code | Meaning | What to do |\n|---|---|---|\n| E01 | Water tank empty or not seated | Refill and push the tank in until it clicks |\n| E02 | Door opened during steam | Close the door and restart |\n| E07 | Limescale in the steam generator | Run the descaling program |\n| E11 | Temperature sensor fault | Switch off at the wall for one minute; if it comes back, contact us |\n| E14 | Drain blocked | Clean the drain filter under the tank |\n| E21 | Fan motor overload | Stop using the oven and open a warranty claim |")

sec("Cleaning and dishwasher safety",
    "Jugs, lids, baskets and drawers marked with the dishwasher symbol can go on the top rack. Bases, water tanks with electronics, and anything with a cable never go in the dishwasher.",
    "For non-stick coatings use a soft sponge; steel wool and abrasive cream remove the coating and are not covered by the warranty.")

sec("Using the Hearthline app",
    "The Hearthline app (iOS 16 or later, Android 10 or later) connects to the Crema Pro, Crisp XL and Steam 2 over Wi-Fi. It shows recipes, starts programs and sends descaling reminders.",
    "The app only supports 2.4 GHz Wi-Fi networks; if your router uses one name for both bands, pairing can fail. Temporarily separate the bands or use the router's guest network.")

sec("Firmware updates",
    "Connected appliances check for firmware updates every night at 3:00 local time and install them when idle. You can also trigger an update from the app under Appliance > About.",
    "Firmware 2.8 for the Crisp XL added a dehydrating program; firmware 3.1 for the Steam 2 fixed a bug where E11 appeared after power cuts.")

sec("Privacy and your data",
    "We store your account, order and warranty data in data centres in Frankfurt and Dublin. Connected appliances send usage statistics only if you agreed to it in the app, and you can withdraw that consent at any time.",
    "You can download a copy of your data or ask us to delete it under Account > Privacy. Deletion requests are completed within 30 days, except invoices, which we must keep for ten years under tax law.")

sec("Cookies on our website",
    "We use necessary cookies to run the basket and login, and optional analytics and marketing cookies only after you accept them. Change your choice at any time with the 'Cookie settings' link at the bottom of every page.")

sec("Newsletter and marketing emails",
    "Subscribe at checkout or in your account and get 10 percent off your next order. Unsubscribe with the link at the bottom of any newsletter; it takes effect immediately, although an email already scheduled may still arrive the next day.")

sec("Hearthline Plus membership",
    "Hearthline Plus costs 29 euros a year and includes free express shipping, a fourth year of warranty on every appliance you register, 15 percent off descaler and filters, and priority support.",
    "The membership renews automatically every year; cancel any time before the renewal date in Account > Membership and you keep the benefits until the end of the paid year.")

sec("Business customers and resellers",
    "Companies can open a business account to buy on invoice with 30-day payment terms after a credit check. Volume prices start at ten units of one model.",
    "We do not allow resale on marketplaces without a reseller agreement; contact partners@hearthline.example for one.")

sec("Product recalls and safety notices",
    "In November 2023 we recalled the first production batch of the Boil Glass kettle (serial numbers starting with BG2309) because the base could overheat. Affected owners receive a free replacement base; check your serial number on our recall page.",
    "No other products are currently affected. We announce every recall by email to registered owners and on this page.")

sec("Voltage and using appliances abroad",
    "Our appliances are built for 220 to 240 volts at 50 Hz with a European plug (type F) or a UK plug (type G). Do not use them on 110-volt networks, even with a plug adapter: a converter is needed and the warranty does not cover damage from wrong voltage.")

sec("Packaging and recycling",
    "Our boxes are made from recycled cardboard and printed with water-based inks; the inserts are moulded pulp instead of polystyrene since 2022.",
    "When you buy a new appliance we take back an old one of the same kind for free in France, Germany, Spain and Italy: choose 'Take back my old appliance' at checkout and hand it to the delivery driver.")

sec("Accessibility of our products",
    "The Boil 1.7 and Toast Duo have tactile markings on the main buttons. The app supports VoiceOver and TalkBack, and every program on the connected appliances can be started by voice through the app.")

sec("Careers at Hearthline",
    "We hire in Lyon, Zaragoza and Porto. Open roles are listed on our careers page; we answer every application within three weeks.")

sec("Press and partnerships",
    "Journalists can reach our press office at press@hearthline.example. For retail partnerships, see the section for business customers and resellers.")

sec("Contacting customer care",
    "Chat with us in the app or on the website, or call +33 4 00 00 00 00 (standard rates). Our care team works Monday to Saturday; chat is answered fastest.",
    "For complaints that we could not resolve, you can use the EU online dispute resolution platform or the consumer mediator listed in our terms.")

sec("Terms of sale (summary)",
    "The contract is with Hearthline SAS, Lyon, France. French law applies, without removing the protection that the law of your country of residence gives you as a consumer.",
    "Prices are those shown when you order. If we show an obviously wrong price by mistake, we may cancel the order and refund you in full within 48 hours.")

# Per-model product pages: specification tables and model-specific notes.
for m, kind in MODELS:
    watts = rng.choice([650, 800, 1000, 1200, 1450, 1700, 2000, 2200, 2400])
    spec = "\n".join([
        "| Specification | Value |", "|---|---|",
        f"| Power | {watts} W |",
        f"| Capacity | {rng.choice(['0.6 l', '1.2 l', '1.7 l', '4.2 l', '5.5 l', '40 bottles', '6 slices', '2 slices'])} |",
        f"| Dimensions (W x D x H) | {rng.randint(15, 45)} x {rng.randint(18, 50)} x {rng.randint(20, 48)} cm |",
        f"| Weight | {rng.randint(9, 160) / 10} kg |",
        f"| Noise level | {rng.randint(38, 72)} dB(A) |",
        f"| Standby consumption | {rng.choice(['0.3', '0.4', '0.5'])} W |",
        f"| Colours | {', '.join(rng.sample(['charcoal', 'chalk white', 'sage', 'terracotta', 'brushed steel', 'midnight blue'], 3))} |",
        f"| EAN | 37{rng.randint(10**10, 10**11 - 1)} |",
    ])
    box = ", ".join(rng.sample(["quick-start guide", "manual in 24 languages", "water hardness test strip", "measuring spoon", "recipe booklet", "cleaning brush", "spare seal", "descaler sachet", "tamper", "milk jug"], 4))
    notes = [
        f"The {m} is our {kind} for {rng.choice(['small households', 'families', 'people who cook every day', 'compact kitchens', 'entertaining guests'])}. In the box: {box}.",
        f"The {m} {rng.choice(['fits under standard wall cabinets', 'needs about 10 cm of free space above it while running', 'has a cable tidy under the base', 'has a removable base for easier cleaning'])}. The manual for the {m} is available as a PDF under Parts > Manuals, in 24 languages.",
        f"Compatible accessories for the {m}: {', '.join(rng.sample(['travel lid', 'second jug', 'silicone liner', 'grill plate', 'sandwich cage', 'thermal carafe', 'filter cartridge pack', 'dough hook', 'pasta roller'], 2))}.",
    ]
    sec(f"{m} {kind}: specifications", *notes, spec)

# Country pages: delivery and returns details per destination.
HOLIDAYS = ["Easter Monday", "Ascension Day", "Whit Monday", "1 May", "All Saints' Day", "Christmas week", "Corpus Christi", "national day"]
for c in COUNTRIES:
    courier = rng.choice(["DHL", "GLS", "DPD", "PostNL", "Colissimo", "InPost", "Posti", "Bring"])
    paras = [
        f"Parcels to {c} are carried by {courier}. {rng.choice(['You can redirect the parcel to a pick-up point from the tracking page.', 'If you are not at home, the driver leaves a card and tries again the next working day.', 'Lockers are available in most cities; choose one at checkout.'])}",
        f"Returns from {c} go back with {courier} {rng.choice(['through any pick-up point', 'by home collection booked online', 'from any post office counter'])}; the label is in your account. Expect slower handling around {rng.choice(HOLIDAYS)}.",
    ]
    if c in ("Norway", "Switzerland", "United Kingdom"):
        paras.append(f"{c} is outside the EU customs union: prices at checkout include import duties and local VAT, so the courier will not ask you for extra charges on delivery.")
    sec(f"Delivery and returns in {c}", *paras)

assert len(S) >= 40, len(S)

out = ["# Hearthline Help Center: Frequently Asked Questions", "",
       "[Home](/) · [Shop](/shop) · [Parts](/parts) · [Recipes](/recipes) · [My account](/account) · [Help](/help)", "",
       "Search the help center, or browse the topics below. Last updated 2 May 2025.", ""]
for h, paras in S:
    out.append("## " + h)
    out.append("")
    for p in paras:
        out.append(p)
        out.append("")
    for b in rng.sample(BOILER, rng.randint(2, 5)):
        out.append(b)
        out.append("")
    out.append("*Was this answer helpful? [Yes](#) · [No](#)*")
    out.append("")
out.append("---")
out.append("© 2025 Hearthline SAS · Terms · Privacy · Cookie settings · Imprint")
text = "\n".join(out) + "\n"
open("faq.md", "w").write(text)
print(len(S), "sections,", len(text), "chars")
