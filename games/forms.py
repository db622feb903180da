from django import forms
from django.utils.text import capfirst
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _


class CompareForm(forms.Form):
    """Which two languages of a game's rules to read side by side."""

    left = forms.ChoiceField(label=_("Left"), required=False)
    right = forms.ChoiceField(label=_("Right"), required=False)

    def __init__(self, *args, languages, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(code, capfirst(get_language_info(code)["name_local"])) for code in languages]
        self.fields["left"].choices = choices
        self.fields["right"].choices = choices
